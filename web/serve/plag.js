/* Plagiarism for the organisers, drawn here only.
 *
 * The similar pairs of a game (J.plagPairs): the plagiarism page
 * (/plagiarism/GAME, and the same page written by `judge plagiarism
 * --html` with its list embedded) and the organiser page's section draw
 * the one list the judge writes (plag_list.h), as the API answers it.
 *
 * The flags (J.plagRender): the news first (how many flags nobody has
 * looked at yet, per game), then each flag with its earlier file (the
 * original) and its later file (the suspected copy): ids, players,
 * authors and upload times.  Confirm, dismiss or clear a flag with a note;
 * the judge keeps every decision.
 *
 * Runs after serve.js, whose J and pages it uses; every name is put in as
 * text. */
'use strict';

J.pct = x => Math.round(x * 100) + '%';
/* How `judge plagiarism show` names a file. */
J.plagRef = s => s.submission ? String(s.submission) : 'doc:' + s.doc;
J.plagFile = s => J.el('span', { className: 'plag-file' },
	(s.submission ? '#' + s.submission : 'doc:' + s.doc + ' (archived, ' + s.archive + ')') + ' ' + s.player + ' by ' + s.author,
	J.el('span', { className: 'muted' }, ' lines ' + s.lines[0] + '\u2013' + s.lines[1]));

/* Both files of a pair, the longest shared fragment marked (the service). */
J.plagSideBySide = async (box, a, b) => {
	const p = await J.api('/api/organiser/pair/' + a + '?b=' + b);
	const pane = d => {
		const pre = J.el('pre');
		d.source.split('\n').forEach((line, i) => {
			const n = i + 1, hit = n >= d.first_line && n <= d.last_line;
			pre.append(J.el('span', { className: hit ? 'hit' : '' }, String(n).padStart(4) + '  ' + line + '\n'));
		});
		return J.el('div', {}, J.el('h2', {}, d.name + ' by ' + d.author + (d.label ? ' (' + d.label + ')' : '')), pre);
	};
	box.replaceChildren(J.el('p', {}, J.pct(p.similarity) + ' similar; the longest shared fragment is marked.'),
		J.el('div', { className: 'side' }, pane(p.a), pane(p.b)));
	/* Each file scrolled to where the shared fragment starts. */
	box.querySelectorAll('pre').forEach(pre => {
		const hit = pre.querySelector('.hit');
		if (hit) pre.scrollTop = hit.offsetTop - pre.offsetTop - 40;
	});
};

/* The list (plag_list_json): a table, most similar first; a pair is shown
 * side by side in box, or, on a page alone, by the command named. */
J.plagPairs = (list, box) => {
	const n = list.pairs.length, pairs = n + (n === 1 ? ' pair' : ' pairs');
	const show = r => J.embedded
		? J.el('code', { className: 'show-command' }, 'judge plagiarism show ' + J.plagRef(r.a) + ' ' + J.plagRef(r.b))
		: J.el('button', { type: 'button', className: 'plain', onclick: () => J.plagSideBySide(box, r.a.doc, r.b.doc) }, 'side by side');
	return J.el('div', { id: 'pairs' },
		J.el('p', { id: 'pairs-summary', className: 'muted' }, (list.flagged_too
			? pairs + ' flagged: at least ' + J.pct(list.min) + ' similar, or sharing a long fragment'
			: pairs + ' at least ' + J.pct(list.min) + ' similar') + '; measured ' + J.time(list.generated_at) + '.'),
		J.table([
			{ key: 'similarity', label: 'Similar', num: true, cell: r => J.pct(r.similarity),
			  title: 'the larger of the two shares: how much of one file is found in the other' },
			{ key: 'a_in_b', label: 'A in B', num: true, cell: r => J.pct(r.a_in_b) },
			{ key: 'b_in_a', label: 'B in A', num: true, cell: r => J.pct(r.b_in_a) },
			{ key: 'longest_tokens', label: 'Longest fragment', num: true, title: 'tokens of the longest fragment both files share' },
			{ label: 'File A', cell: r => J.plagFile(r.a) },
			{ label: 'File B', cell: r => J.plagFile(r.b) },
			{ label: '', cell: r => J.el('span', {}, r.flagged ? J.el('span', { className: 'badge warn' }, r.fragment ? 'flagged: long fragment' : 'flagged') : '', ' ', show(r)) },
		], list.pairs, { id: 'pair-list', rowClass: r => r.flagged ? 'flagged' : '', empty: 'no similar pairs' }));
};

/* The organiser page's section: a game's flagged pairs, or those at least
 * a share similar, and one pair side by side. */
J.plagSection = async (main, gameSelect) => {
	const min = J.el('select', { id: 'plag-min' }, J.el('option', { value: '' }, 'flagged pairs'),
		[0.2, 0.35, 0.5, 0.8].map(x => J.el('option', { value: String(x) }, 'at least ' + J.pct(x) + ' similar')));
	const own = J.el('a', { id: 'plag-page' }, 'page of its own');
	const pairs = J.el('div'), side = J.el('div', { id: 'pair' });
	const load = async () => {
		const query = min.value ? '?min=' + min.value : '';
		own.href = '/plagiarism/' + encodeURIComponent(gameSelect.value) + query;
		const list = await J.api('/api/organiser/plagiarism/' + encodeURIComponent(gameSelect.value) + query);
		pairs.replaceChildren(J.plagPairs(list, side));
		side.replaceChildren();
	};
	gameSelect.onchange = load;
	min.onchange = load;
	main.append(J.el('h2', {}, 'Plagiarism'), J.el('div', { className: 'row' }, gameSelect, min, own), pairs, side);
	await load();
};

/* /plagiarism/GAME[?min=SHARE], or its list embedded. */
pages.plagiarism = async main => {
	const min = J.query('min');
	const list = await J.data('/api/organiser/plagiarism/' + encodeURIComponent(J.segment(2)) + (min ? '?min=' + encodeURIComponent(min) : ''));
	const side = J.el('div', { id: 'pair' });
	document.title = list.game + ': similar files';
	main.append(J.el('h1', {}, list.game + ': similar files'), J.plagPairs(list, side), side);
	if (J.embedded)
		main.append(J.el('p', { className: 'muted', id: 'pairs-note' }, 'A file is a submission (#id) or an archived file (doc:N). '
			+ 'This page was written by judge plagiarism --html and holds no source: the command beside a pair prints both files, '
			+ 'the code found in both marked.'));
};

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
