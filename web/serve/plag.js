/* The organiser page's plagiarism flags: the news first (how many flags
 * nobody has looked at yet, per game), then each flag with its earlier file
 * (the original) and its later file (the suspected copy): ids, players,
 * authors and upload times.  Confirm, dismiss or clear a flag with a note;
 * the judge keeps every decision.  Runs after serve.js, whose J it uses;
 * every name is put in as text. */
'use strict';

J.plagSide = (s, role) => J.el('div', { className: 'plag-side' }, J.el('strong', {}, role + ': '),
	s.submission ? 'submission ' + s.submission : 'archived file (' + s.label + ')',
	', ' + s.player + ' by ' + s.author, s.uploaded_at ? ', uploaded ' + J.time(s.uploaded_at) : '');

J.plagLaterRole = f => f.review === 'confirmed' ? 'Later, a confirmed copy'
	: f.review === 'dismissed' ? 'Later' : 'Later, suspected';

J.plagFlag = (f, decide) => {
	const note = J.el('input', { className: 'plag-note', placeholder: 'note (why)', size: 30 });
	const button = (action, label) => J.el('button', { type: 'button', className: 'plag-' + action,
		onclick: () => decide(f.id, action, note.value) }, label);
	return J.el('li', { id: 'flag-' + f.id, className: 'plag-flag' + (f.seen ? '' : ' unseen') },
		J.el('div', {}, J.el('strong', {}, 'Flag ' + f.id), ' ' + f.game + ', ' + Math.round(f.similarity * 100) + '% similar ',
			f.seen ? '' : J.el('span', { className: 'badge warn' }, 'new'),
			J.el('span', { className: 'badge plag-review' }, f.review || 'open')),
		J.plagSide(f.earlier, 'Earlier, the original'), J.plagSide(f.later, J.plagLaterRole(f)),
		f.review ? J.el('div', { className: 'muted' }, f.review + ' by ' + f.reviewed_by + ' ' + J.time(f.reviewed_at) + (f.note ? ': ' + f.note : '')) : '',
		J.el('div', { className: 'row' }, note, button('confirm', 'Confirm copy'), button('dismiss', 'Dismiss'), button('clear', 'Clear decision')));
};

J.plagRender = async box => {
	const data = await J.api('/api/organiser/flags');
	const unseen = data.news.reduce((n, g) => n + g.unseen, 0);
	const decide = async (id, action, note) => {
		try {
			await J.api('/api/organiser/flags/' + id, { method: 'POST', json: { action, note } });
			J.say('flag ' + id + ': ' + action + ' recorded', 'ok');
		} catch (e) { J.say(e.message, 'error'); }
		await J.plagRender(box);
	};
	const seen = J.el('button', { type: 'button', id: 'plag-seen', onclick: async () => {
		await J.api('/api/organiser/flags/seen', { method: 'POST', json: {} });
		await J.plagRender(box);
	} }, 'Mark all seen');
	box.replaceChildren(J.el('h2', {}, 'Plagiarism flags'),
		J.el('p', { id: 'plag-news', className: unseen ? 'news' : 'muted' }, unseen
			? unseen + ' new flag' + (unseen === 1 ? '' : 's') + ' (' + data.news.map(g => g.game + ': ' + g.unseen).join(', ') + ') ' : 'No new flag. ',
			unseen ? seen : ''),
		data.flags.length ? J.el('ul', { id: 'plag-flags' }, data.flags.map(f => J.plagFlag(f, decide)))
			: J.el('p', { className: 'muted' }, 'No flagged pair.'));
};

window.addEventListener('DOMContentLoaded', async () => {
	const box = document.getElementById('plag-review');
	if (!box || !J.token()) return;
	try {
		const me = await J.api('/api/me');
		if (me.organiser) await J.plagRender(box);
	} catch (e) { box.replaceChildren(J.el('p', { className: 'error' }, e.message)); }
});
