/* The organisers' page, people: disqualify or reinstate a player picked
 * from the game's list, with every decision so far (who, when, why,
 * lifted), and the tokens, each revoked only once the organiser confirms.
 * pages.organiser (serve.js) calls J.people with the games and its act(). */
'use strict';

J.people = async (main, games, act) => {
	const game = J.el('select', { id: 'dq-game' }, games.map(g => J.el('option', { value: g.name }, g.title)));
	const player = J.el('select', { id: 'dq-player', 'aria-label': 'player' });
	const reason = J.el('input', { id: 'dq-reason', placeholder: 'reason the player will read', size: 40, maxLength: 500 });
	const disqualify = J.el('button', { type: 'submit' }, 'Disqualify');
	const reinstate = J.el('button', { type: 'button', id: 'dq-reinstate' }, 'Reinstate');
	const history = J.el('div', { id: 'dq-history' });
	let players = [];
	const picked = () => players.find(p => p.name === player.value);
	const showButtons = () => {
		const p = picked();
		disqualify.disabled = !p || p.disqualified;
		reinstate.disabled = !p || !p.disqualified;
	};
	const load = async () => {
		const r = await J.api('/api/organiser/players/' + encodeURIComponent(game.value));
		const keep = player.value;
		players = r.players;
		player.replaceChildren(...players.map(p => J.el('option', { value: p.name },
			p.name + ' (' + p.author + ')' + (p.disqualified ? ' - disqualified' : ''))));
		if (players.some(p => p.name === keep)) player.value = keep;
		showButtons();
		history.replaceChildren(J.table([
			{ key: 'name', label: 'Player' },
			{ key: 'created_at', label: 'Disqualified', cell: d => J.time(d.created_at) },
			{ key: 'decided_by', label: 'By', cell: d => d.decided_by || '' },
			{ key: 'reason', label: 'Why' },
			{ key: 'reinstated_at', label: 'Lifted', cell: d => d.reinstated_at
				? J.time(d.reinstated_at) + ' by ' + d.reinstated_by : J.el('span', { className: 'badge bad' }, 'in force') },
		], r.history, { sortKey: 'created_at', empty: 'nobody was ever disqualified from this game' }));
	};
	const decide = async (path, json, done) => { await act(path, json, done); await load(); };
	game.onchange = load;
	player.onchange = showButtons;
	reinstate.onclick = () => decide('/api/organiser/reinstate', { game: game.value, name: player.value },
		r => r.name + ' is reinstated in ' + r.game + ': back in the ranking and matchmaking');
	const form = J.el('form', { className: 'row', id: 'disqualify', onsubmit: ev => {
		ev.preventDefault();
		if (!reason.value.trim()) { J.say('Give the reason the player will read.', 'error'); return; }
		decide('/api/organiser/disqualify', { game: game.value, name: player.value, reason: reason.value },
			r => r.name + ' is disqualified from ' + r.game);
	} }, game, player, reason, disqualify, reinstate);
	main.append(J.el('h2', {}, 'Disqualify or reinstate a player'), form, history);
	await load();

	const tokens = J.el('div', { id: 'tokens' });
	const revoke = r => {
		const who = 'token ' + r.id + ' of ' + r.author + (r.label ? ' (' + r.label + ')' : '');
		if (!confirm('Revoke ' + who + '? It stops working at once and cannot be given back; '
			+ 'the author then needs a new token (judge token add).')) return;
		act('/api/organiser/tokens/' + r.id + '/revoke', {}, () => who + ' revoked').then(loadTokens);
	};
	const loadTokens = async () => tokens.replaceChildren(J.table([
		{ key: 'id', label: 'Id', num: true }, { key: 'author', label: 'Author' }, { key: 'label', label: 'Label', cell: r => r.label || '' },
		{ key: 'organiser', label: 'Role', cell: r => r.organiser ? 'organiser' : 'contestant' },
		{ key: 'created_at', label: 'Created', cell: r => J.time(r.created_at) },
		{ key: 'revoked_at', label: '', cell: r => r.revoked_at ? 'revoked ' + J.time(r.revoked_at)
			: J.el('button', { type: 'button', className: 'plain', onclick: () => revoke(r) }, 'Revoke') },
	], await J.api('/api/organiser/tokens'), { sortKey: 'id' }));
	main.append(J.el('h2', {}, 'Tokens'), J.el('p', { className: 'muted' },
		'New tokens: judge token add --author NAME [--organiser], or judge token import roster.csv, on the judge\'s machine.'), tokens);
	await loadTokens();
};
