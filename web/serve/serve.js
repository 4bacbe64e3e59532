/* The service's pages: each page's script, chosen by <body data-page>.
 * Every text that came from the judge (names, authors, logs, reasons) is
 * put into the page as text (textContent, text nodes), never as markup.
 * The token lives in this browser's localStorage and goes out only as the
 * Authorization header of the API's requests. */
'use strict';

const J = {};

J.errors = [];
window.addEventListener('error', e => J.errors.push(String(e.message)));
window.addEventListener('unhandledrejection', e => J.errors.push(String(e.reason)));

J.token = () => localStorage.getItem('judge.token') || '';
J.setToken = t => {
	if (t) localStorage.setItem('judge.token', t.trim()); else localStorage.removeItem('judge.token');
	if (J.showWho) J.showWho();
};

/* An element: props are properties (className, href, onclick...), kids are
 * elements or strings (made text nodes). */
J.el = (tag, props, ...kids) => {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(props || {})) {
		if (k === 'dataset') Object.assign(e.dataset, v);
		else if (k.startsWith('aria') || k === 'title' || k === 'colspan') e.setAttribute(k, v);
		else e[k] = v;
	}
	for (const kid of kids.flat()) {
		if (kid === null || kid === undefined) continue;
		e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
	}
	return e;
};

J.svg = (tag, attrs) => {
	const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
	for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
	return e;
};

J.api = async (path, opts = {}) => {
	const headers = Object.assign({}, opts.headers || {});
	if (J.token()) headers.Authorization = 'Bearer ' + J.token();
	if (opts.json !== undefined) {
		headers['Content-Type'] = 'application/json';
		opts.body = JSON.stringify(opts.json);
	}
	const r = await fetch(path, { method: opts.method || 'GET', headers, body: opts.body });
	const text = await r.text();
	let data = null;
	try { data = JSON.parse(text); } catch (e) { data = { error: text || r.statusText }; }
	if (!r.ok) {
		/* The API's 401s speak of headers; a page's reader has a field. */
		const words = r.status !== 401 ? (data && data.error) || ('HTTP ' + r.status)
			: J.token() ? 'the judge does not know this token, or it was revoked: check it, or ask the organisers for a new one'
			: 'this needs your token: give the one the organisers sent you in the Token field';
		const err = new Error(words);
		err.status = r.status;
		throw err;
	}
	return data;
};

J.say = (text, kind) => {
	const m = document.getElementById('message');
	if (!m) return;
	m.textContent = text || '';
	m.className = kind || '';
};

J.time = ms => ms ? new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '';
J.num = x => (Math.abs(x) < 0.005 ? 0 : x).toFixed(2);
J.segment = n => decodeURIComponent(location.pathname.split('/')[n] || '');
J.query = k => new URLSearchParams(location.search).get(k);
J.link = (href, text) => J.el('a', { href }, text);
J.playerLink = (name, game) =>
	J.link('/players/' + encodeURIComponent(name) + (game ? '?game=' + encodeURIComponent(game) : ''), name);
J.matchLink = id => J.link('/matches/' + id, '#' + id);

J.stateBadge = state => {
	const kind = { qualified: 'good', compile_failed: 'bad', not_qualified: 'bad', superseded: '' }[state];
	return J.el('span', { className: 'badge ' + (kind === undefined ? 'warn' : kind) }, state.replace('_', ' '));
};

/* The top bar: the pages, and who the token says you are. */
J.header = async () => {
	const who = J.el('span', { className: 'who' }, J.token() ? '' : 'no token: public pages only');
	const bar = J.el('header', { className: 'top' },
		J.el('a', { className: 'brand', href: '/' }, 'judge'),
		J.link('/', 'Leaderboards'), J.link('/tournaments', 'Tournaments'), J.link('/upload', 'Upload'),
		J.link('/submissions', 'My submissions'), J.link('/organiser', 'Organisers'), who);
	document.body.prepend(bar);
	/* Again whenever the token changes (an upload keeps the one typed). */
	J.showWho = async () => {
		who.textContent = J.token() ? '' : 'no token: public pages only';
		if (!J.token())
			return;
		try {
			const me = await J.api('/api/me');
			who.textContent = 'signed in as ' + me.author + (me.organiser ? ' (organiser)' : '');
		} catch (e) { who.textContent = e.message; }
	};
	await J.showWho();
};

/* A token field kept in localStorage. */
J.tokenField = (onchange) => {
	const input = J.el('input', { type: 'password', id: 'token', size: 46, value: J.token(),
				      placeholder: 'your token', autocomplete: 'off' });
	const save = J.el('button', { type: 'button', className: 'plain', id: 'save-token',
		onclick: () => { J.setToken(input.value); if (onchange) onchange(); } }, 'Keep token');
	return J.el('div', { className: 'row' }, J.el('label', { htmlFor: 'token' }, 'Token'), input, save);
};

/* A sortable table: columns [{key, label, num, cell(row) -> node|string}]. */
J.table = (columns, rows, opts = {}) => {
	let sortKey = opts.sortKey, dir = 1;
	const tbody = J.el('tbody');
	const head = columns.map(c => J.el('th', {
		className: (c.num ? 'num ' : '') + (c.key ? 'sortable' : ''),
		onclick: () => { if (!c.key) return; dir = sortKey === c.key ? -dir : 1; sortKey = c.key; fill(); },
	}, c.label));
	const fill = () => {
		const filter = (opts.filter ? opts.filter() : '').toLowerCase();
		let list = rows.filter(r => !filter || (opts.text ? opts.text(r) : '').toLowerCase().includes(filter));
		if (sortKey) list = list.slice().sort((a, b) => {
			const x = a[sortKey], y = b[sortKey];
			/* numeric: seeds are strings of digits (64 bits) */
			return (typeof x === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true })) * dir;
		});
		head.forEach((th, i) => {
			const sorted = sortKey !== undefined && columns[i].key === sortKey;
			th.classList.toggle('sorted-asc', sorted && dir === 1);
			th.classList.toggle('sorted-desc', sorted && dir === -1);
		});
		tbody.replaceChildren(...list.map(r => J.el('tr', { className: opts.rowClass ? opts.rowClass(r) : '' },
			columns.map(c => J.el('td', { className: c.num ? 'num' : '' }, c.cell ? c.cell(r) : String(r[c.key]))))));
		if (!list.length)
			tbody.append(J.el('tr', {}, J.el('td', { colspan: columns.length, className: 'muted' }, opts.empty || 'nothing yet')));
	};
	const table = J.el('table', { id: opts.id || '' }, J.el('thead', {}, J.el('tr', {}, head)), tbody);
	table.refresh = fill;
	fill();
	return table;
};

/* ---- pages --------------------------------------------------------------- */

const pages = {};

pages.index = async main => {
	const games = await J.api('/api/games');
	main.append(J.el('h1', {}, 'Leaderboards'));
	main.append(J.el('ul', {}, games.map(g => J.el('li', {}, J.link('/leaderboard/' + g.name, g.title),
		J.el('span', { className: 'muted' }, g.min_players === g.max_players
			? ' (' + g.min_players + ' players a match)' : ' (' + g.min_players + ' to ' + g.max_players + ' players a match)')))));
	/* the tournaments, when there are any the reader may see */
	const tournaments = await J.api('/api/tournaments').catch(() => []);
	if (tournaments.length)
		main.append(J.el('h2', {}, 'Tournaments'), J.el('ul', { id: 'tournament-links' }, tournaments.map(t =>
			J.el('li', {}, J.link('/tournaments/' + encodeURIComponent(t.name), t.name),
				J.el('span', { className: 'muted' }, ' (' + t.game + (t.over ? ', over' : '') + ')')))));
};

pages.leaderboard = async main => {
	const game = J.segment(2);
	const b = await J.api('/api/leaderboard/' + encodeURIComponent(game));
	document.title = b.title + ' leaderboard';
	main.append(J.el('h1', {}, b.title + ' leaderboard'));
	main.append(J.el('p', { className: 'muted' }, 'Score = mu - 3 sigma, a skill the player very likely has. Read ' + J.time(b.generated_at) + '.'));
	if (b.match_sizes.length > 1 || (b.match_sizes[0] && b.match_sizes[0].players !== 4))
		main.append(J.el('p', { id: 'sizes' }, 'Players per match: ',
			b.match_sizes.map(s => s.players + ' players: ' + s.matches + (s.matches === 1 ? ' match' : ' matches')).join('; ')));
	const filter = J.el('input', { type: 'search', id: 'filter', placeholder: 'filter by player or author' });
	main.append(J.el('div', { className: 'row' }, J.el('label', { htmlFor: 'filter' }, 'Filter'), filter));
	const cols = [
		{ key: 'rank', label: 'Rank', num: true },
		{ key: 'player', label: 'Player', cell: r => J.el('span', {}, J.playerLink(r.player, game),
			r.suspected ? J.el('span', { className: 'badge warn', title: 'its file is a suspected copy' }, 'suspected copy') : null) },
		{ key: 'author', label: 'Author' },
		{ key: 'score', label: 'Score', num: true, cell: r => J.num(r.score) },
		{ key: 'mu', label: 'mu', num: true, cell: r => J.num(r.mu) },
		{ key: 'sigma', label: 'sigma', num: true, cell: r => J.num(r.sigma) },
		{ key: 'games', label: 'Games', num: true },
		{ key: 'wins', label: 'Wins', num: true },
	];
	if (b.mixed_sizes)
		cols.splice(6, 0, { key: 'games', label: 'Players per match', cell: r =>
			Object.entries(r.games_by_players || {}).map(([n, k]) => n + 'p\u00d7' + k).join(' ') });
	const t = J.table(cols, b.rows, { id: 'board', sortKey: 'rank', filter: () => filter.value,
		text: r => r.player + ' ' + r.author, empty: 'no ranked players yet' });
	filter.oninput = () => t.refresh();
	main.append(t);
	if (b.organiser) {
		main.append(J.el('h2', {}, 'Disqualified players'));
		main.append(J.table([
			{ key: 'name', label: 'Player', cell: r => J.el('span', {}, J.playerLink(r.name, game), J.el('span', { className: 'badge bad' }, 'disqualified')) },
			{ key: 'reason', label: 'Reason' }, { key: 'decided_by', label: 'By' },
			{ key: 'created_at', label: 'When', cell: r => J.time(r.created_at) },
		], b.disqualified || [], { id: 'disqualified', empty: 'none' }));
	}
};

/* Score (mu - 3 sigma) and mu after each rated game, as an SVG plot. */
J.plot = history => {
	const W = 900, H = 260, L = 48, R = 12, T = 12, B = 28;
	const svg = J.svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'plot', id: 'plot', role: 'img',
				   'aria-label': 'rating over time' });
	if (!history.length) {
		const t = J.svg('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle' });
		t.textContent = 'no rated games yet';
		svg.append(t);
		return svg;
	}
	const ys = history.flatMap(h => [h.score, h.mu]);
	let lo = Math.floor(Math.min(...ys)), hi = Math.ceil(Math.max(...ys));
	if (hi - lo < 1) hi = lo + 1;
	const x = i => L + (history.length === 1 ? (W - L - R) / 2 : i * (W - L - R) / (history.length - 1));
	const y = v => T + (hi - v) * (H - T - B) / (hi - lo);
	for (let k = 0; k <= 4; k++) {
		const v = lo + (hi - lo) * k / 4;
		svg.append(J.svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
		const t = J.svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' });
		t.textContent = v.toFixed(1);
		svg.append(t);
	}
	svg.append(J.svg('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }));
	svg.append(J.svg('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }));
	const path = key => history.map((h, i) => (i ? 'L' : 'M') + x(i).toFixed(1) + ' ' + y(h[key]).toFixed(1)).join(' ');
	svg.append(J.svg('path', { d: path('mu'), class: 'mu' }));
	svg.append(J.svg('path', { d: path('score'), class: 'score' }));
	const label = J.svg('text', { x: W - R, y: H - 8, 'text-anchor': 'end' });
	label.textContent = history.length + ' rated games: score (solid), mu (dashed)';
	svg.append(label);
	return svg;
};

J.matchesTable = (matches, id, more = []) => J.table([
	{ key: 'match', label: 'Match', num: true, cell: r => J.matchLink(r.match) },
	{ key: 'kind', label: 'Kind' },
	{ key: 'created_at', label: 'When', cell: r => J.time(r.created_at) },
	{ key: 'players', label: 'Players', num: true },
	{ key: 'rank', label: 'Rank', num: true },
	{ key: 'score', label: 'Score', num: true },
	{ key: 'seed', label: 'Seed', num: true, cell: r => r.seed },
	{ key: 'verdict', label: 'Frozen', cell: r => r.verdict ? r.verdict + (r.reason ? ': ' + r.reason : '') : '' },
	...more,
], matches, { id, empty: 'no matches yet' });

pages.player = async main => {
	const name = J.segment(2), game = J.query('game');
	const p = await J.api('/api/players/' + encodeURIComponent(name) + (game ? '?game=' + encodeURIComponent(game) : ''));
	document.title = p.name + ' (' + p.game + ')';
	main.append(J.el('h1', {}, p.name, J.el('span', { className: 'muted' }, ' in ' + p.game)));
	main.append(J.el('p', {}, 'Author: ', J.el('span', { id: 'author' }, p.author),
		p.disqualifications.length ? J.el('span', { className: 'badge bad' }, 'disqualified: ' + p.disqualifications[0].reason) : null));
	main.append(J.el('h2', {}, 'Rating over time'), J.plot(p.history));
	main.append(J.el('h2', {}, 'Matches'), J.matchesTable(p.matches, 'matches'));
	main.append(J.el('h2', {}, 'Submissions'), J.table([
		{ key: 'id', label: 'Submission', num: true },
		{ key: 'state', label: 'State', cell: r => J.stateBadge(r.state) },
		{ key: 'created_at', label: 'Sent', cell: r => J.time(r.created_at) },
	], p.submissions, { id: 'submissions' }));
};

pages.match = async main => {
	const id = J.segment(2);
	const m = await J.api('/api/matches/' + id);
	document.title = 'Match ' + m.id;
	main.append(J.el('h1', {}, 'Match ' + m.id, J.el('span', { className: 'muted' }, ' ' + m.game + ', ' + m.kind)));
	main.append(J.el('table', { className: 'summary' }, J.el('tbody', {},
		J.el('tr', {}, J.el('td', {}, 'Played'), J.el('td', {}, J.time(m.created_at))),
		J.el('tr', {}, J.el('td', {}, 'Seed'), J.el('td', {}, String(m.seed))),
		J.el('tr', {}, J.el('td', {}, 'Play it again'), J.el('td', {}, J.el('code', { id: 'command' }, m.command),
			m.has_params ? J.el('span', {}, ' with ', J.el('a', { id: 'params', href: '/api/matches/' + m.id + '/params', download: 'match-' + m.id + '.cnf' }, 'match-' + m.id + '.cnf')) : '')))));
	main.append(J.table([
		{ key: 'seat', label: 'Seat', num: true },
		{ key: 'name', label: 'Player', cell: r => r.submission === null ? J.el('span', {}, r.name, J.el('span', { className: 'muted' }, ' (shipped)')) : J.playerLink(r.name, m.game) },
		{ key: 'author', label: 'Author' },
		{ key: 'rank', label: 'Rank', num: true },
		{ key: 'score', label: 'Score', num: true },
		{ key: 'cpu_ns', label: 'CPU ms', num: true, cell: r => (r.cpu_ns / 1e6).toFixed(1) },
		{ key: 'verdict', label: 'Frozen', cell: r => r.verdict ? r.verdict + (r.frozen_round !== null ? ' in round ' + r.frozen_round : '') + (r.reason ? ': ' + r.reason : '') : '' },
	], m.players, { id: 'seats', sortKey: 'seat' }));
	if (!m.has_replay) { main.append(J.el('p', { className: 'muted' }, 'No replay was stored for this match.')); return; }
	const r = await fetch('/api/matches/' + id + '/page', { headers: J.token() ? { Authorization: 'Bearer ' + J.token() } : {} });
	if (!r.ok) throw new Error('the replay: HTTP ' + r.status);
	const frame = J.el('iframe', { className: 'viewer', id: 'viewer', title: 'replay of match ' + id });
	frame.setAttribute('sandbox', 'allow-scripts');
	frame.srcdoc = await r.text();
	main.append(J.el('h2', {}, 'Replay'), frame);
};

/* One submission: state, compile log, its matches with the command that
 * plays each again (a column of its own, so it stays when the table is
 * sorted), and the organisers' decision when the player was disqualified. */
J.submissionDetail = async (box, id) => {
	const s = await J.api('/api/submissions/' + id);
	const commands = new Map(s.matches.slice(0, 20).map(m => [m.match, J.el('code')]));
	const dq = J.el('p', { id: 'disqualified', hidden: true });
	box.replaceChildren(
		J.el('h2', {}, 'Submission ' + s.id + ': ' + s.name + ' (' + s.game + ')'),
		J.el('p', { id: 'state' }, 'State: ', J.stateBadge(s.state), ' ',
			J.el('span', { className: 'muted' }, 'updated ' + J.time(s.updated_at))),
		dq,
		s.qualify_note ? J.el('p', { id: 'qualify-note' }, 'Qualification: ' + s.qualify_note) : '',
		s.rating ? J.el('p', {}, 'Rating: mu ' + J.num(s.rating.mu) + ', sigma ' + J.num(s.rating.sigma) + ', ' + s.rating.games + ' games, ' + s.rating.wins + ' wins') : '',
		J.el('h2', {}, 'Compile log'),
		J.el('pre', { id: 'compile-log' }, s.compile_log === null ? '(not compiled yet)' : s.compile_log || '(empty: no warnings)'),
		J.el('h2', {}, 'Matches'),
		J.el('p', { className: 'muted' }, 'Your player\'s stderr of a match, as the judge kept it, is under "Log"; the command of a match (its seed, its seats in order) plays it again. When your player froze, "Why it froze" saves what it was given at that turn and the replay, for judge repro on your machine (see the contestants\' guide).'),
		J.matchesTable(s.matches, 'my-matches', [
			{ label: 'Play it again', cell: r => commands.get(r.match) || '' },
			{ label: 'Log', cell: r => r.has_log ? J.el('a', { href: '#seat-log', className: 'log-link', onclick: () => J.showLog(r.match, r.seat) }, 'log') : '' },
			{ label: 'Why it froze', cell: r => r.has_fault ? J.el('a', { href: '#', className: 'fault-link', title: 'judge repro --record fault-' + r.match + '-' + r.seat + '.json --replay replay-' + r.match + '.json --player ' + s.name + ' --asan', onclick: e => { e.preventDefault(); J.downloadFault(r.match, r.seat); } }, 'record') : '' },
		]),
		J.el('h2', { id: 'log-title' }, 'Log'),
		J.el('pre', { id: 'seat-log' }, '(choose a match\'s log above)'),
		['qualifying', 'qualified', 'not_qualified'].includes(s.state) ? await J.challengeForm(box, s) : '',
		J.compareBox(s));
	commands.forEach(async (code, match) => {
		try {
			code.textContent = (await J.api('/api/matches/' + match)).command;
		} catch (e) { /* a match of others may be private: the seed is shown */ }
	});
	J.api('/api/players/' + encodeURIComponent(s.name) + '?game=' + encodeURIComponent(s.game)).then(p => {
		const d = p.disqualifications && p.disqualifications[0];
		if (!d) return;
		dq.replaceChildren(J.el('span', { className: 'badge bad' }, 'disqualified'),
			' by the organisers on ' + J.time(d.created_at) + ': ', J.el('span', { className: 'reason' }, d.reason));
		dq.hidden = false;
	}).catch(() => { /* no player page yet (not compiled), or boards private */ });
	return s;
};

/* Unrated matches of this submission's player against opponents of the
 * contestant's choice, in their seat order; once queued, the list above is
 * read again until they are played. */
J.challengeForm = async (box, s) => {
	const g = (await J.api('/api/games')).find(x => x.name === s.game);
	const n = g ? Math.max(g.min_players, Math.min(4, g.max_players)) : 2;
	const seats = J.el('input', { id: 'challenge-seats', size: 44,
		value: [s.name].concat(Array(n - 1).fill('Dummy')).join(', ') });
	const seeds = J.el('input', { id: 'challenge-seeds', type: 'number', min: 1, max: 20, value: 1 });
	const form = J.el('form', { className: 'row', id: 'challenge' },
		J.el('label', { htmlFor: 'challenge-seats' }, 'Seats, in order'), seats,
		J.el('label', { htmlFor: 'challenge-seeds' }, 'Matches'), seeds,
		J.el('button', { type: 'submit', id: 'challenge-send' }, 'Challenge'));
	const count = m => m.filter(x => x.kind === 'challenge').length;
	form.onsubmit = async ev => {
		ev.preventDefault();
		try {
			const r = await J.api('/api/challenges', { method: 'POST', json: { game: s.game, player: s.name,
				seats: seats.value.split(',').map(x => x.trim()).filter(x => x), seeds: Number(seeds.value) } });
			J.say(r.message + ': they are played after qualifying and ranked work, and show in the matches below as "challenge".', 'ok');
			const want = count(s.matches) + r.queued;
			for (let i = 0; i < 300; i++) {
				await new Promise(done => setTimeout(done, 1000));
				if (count((await J.submissionDetail(box, s.id)).matches) >= want) break;
			}
		} catch (e) { J.say(e.message, 'error'); }
	};
	return J.el('section', { id: 'challenge-box' }, J.el('h2', {}, 'Challenge'),
		J.el('p', { className: 'muted' }, 'Unrated matches of ' + s.name + ' against players you choose: yours, '
			+ 'another contestant\'s qualified player, or the shipped Demo, Dummy and Null, one name per seat. '
			+ 'They never change a rating, and only the authors who played and the organisers see them.'), form);
};

/* Version comparisons this submission is in, each with its intervals so
 * far, and a form to compare it with another of one's submissions. */
J.compareBox = s => {
	const pct = x => (x > 0 ? '+' : '') + (100 * x).toFixed(1) + '%';
	const num = x => (x > 0 ? '+' : '') + x.toFixed(2);
	const interval = (c, f) => f(c.mean) + (c.low === null ? ' (too few pairs for an interval)' : ' [' + f(c.low) + ', ' + f(c.high) + ']');
	const list = J.el('ul', { id: 'comparisons' });
	(s.comparisons || []).forEach(async c => {
		const li = J.el('li', {}, 'comparison ' + c.id + ': #' + c.a + ' vs #' + c.b + '...');
		list.append(li);
		try {
			const r = await J.api('/api/comparisons/' + c.id);
			li.textContent = '#' + r.a + ' vs #' + r.b + ': wins ' + interval(r.wins, pct) + ', mean rank '
				+ interval(r.rank, num) + ' over ' + r.wins.pairs + ' of ' + r.queued_pairs + ' pairs played';
		} catch (e) { li.textContent += ' ' + e.message; }
	});
	const old = J.el('input', { id: 'compare-old', type: 'number', min: 1, placeholder: 'submission' });
	const pairs = J.el('input', { id: 'compare-pairs', type: 'number', min: 2, max: 200, value: 20 });
	const form = J.el('form', { className: 'row', id: 'compare' },
		J.el('label', { htmlFor: 'compare-old' }, 'Compare with'), old,
		J.el('label', { htmlFor: 'compare-pairs' }, 'Pairs'), pairs,
		J.el('button', { type: 'submit', id: 'compare-send' }, 'Compare'));
	form.onsubmit = async ev => {
		ev.preventDefault();
		try {
			const r = await J.api('/api/comparisons', { method: 'POST', json: { new: s.id, old: Number(old.value), pairs: Number(pairs.value) } });
			J.say('Comparison ' + r.id + ' queued: its pairs are played after qualifying and ranked work; reload to see the intervals grow.', 'ok');
		} catch (e) { J.say(e.message, 'error'); }
	};
	return J.el('section', { id: 'compare-box' }, J.el('h2', {}, 'Version comparisons'),
		J.el('p', { className: 'muted' }, 'Both versions play the same opponents, seeds and seats; the difference in wins '
			+ 'and in mean rank (below 0: better) comes with its 95% interval.'), list, form);
};

/* A frozen seat's record and its match's replay, saved as the two files
 * `judge repro --record FILE --replay FILE` reads (docs/contestants.md). */
J.downloadFault = async (match, seat) => {
	const save = async (path, name) => {
		const r = await fetch(path, { headers: { Authorization: 'Bearer ' + J.token() } });
		if (!r.ok) { J.say((await r.json()).error); return; }
		const a = J.el('a', { href: URL.createObjectURL(await r.blob()), download: name });
		a.click();
		URL.revokeObjectURL(a.href);
	};
	await save('/api/matches/' + match + '/faults/' + seat, 'fault-' + match + '-' + seat + '.json');
	await save('/api/matches/' + match + '/replay', 'replay-' + match + '.json');
};

/* A seat's stderr, fetched with the token and shown as text, never markup. */
J.showLog = async (match, seat) => {
	const title = document.getElementById('log-title'), pre = document.getElementById('seat-log');
	title.textContent = 'Log of match ' + match + ', seat ' + seat;
	const r = await fetch('/api/matches/' + match + '/logs/' + seat, { headers: { Authorization: 'Bearer ' + J.token() } });
	const text = await r.text();
	pre.textContent = r.ok ? text : 'No log: ' + text;
};

pages.submissions = async main => {
	main.append(J.el('h1', {}, 'My submissions'), J.tokenField(() => location.reload()), J.el('div', { id: 'message' }));
	if (!J.token()) { J.say('Give your token to see your submissions.'); return; }
	const list = await J.api('/api/submissions?mine=1');
	main.append(J.table([
		{ key: 'id', label: 'Submission', num: true, cell: r => J.link('/submissions/' + r.id, '#' + r.id) },
		{ key: 'game', label: 'Game' }, { key: 'name', label: 'Player' },
		{ key: 'state', label: 'State', cell: r => J.el('span', {}, J.stateBadge(r.state),
			r.disqualified ? J.el('span', { className: 'badge bad' }, 'disqualified') : null) },
		{ key: 'created_at', label: 'Sent', cell: r => J.time(r.created_at) },
	], list, { id: 'mine', empty: 'no submissions yet: upload one' }));
	const box = J.el('section', { id: 'detail' });
	main.append(box);
	const id = J.segment(2) || (list[0] && list[0].id);
	if (id) await J.submissionDetail(box, id);
};

const FINAL = ['compile_failed', 'qualified', 'not_qualified', 'superseded'];

pages.upload = async main => {
	const games = (await J.api('/api/games')).filter(g => g.uploads !== false);
	const select = J.el('select', { id: 'game' }, games.map(g => J.el('option', { value: g.name }, g.title)));
	const file = J.el('input', { type: 'file', id: 'file', accept: '.c,text/x-c' });
	const send = J.el('button', { type: 'submit', id: 'send' }, 'Upload');
	const box = J.el('section', { id: 'detail' });
	const form = J.el('form', { className: 'row', id: 'upload' }, J.el('label', { htmlFor: 'game' }, 'Game'), select,
		J.el('label', { htmlFor: 'file' }, 'File'), file, send);
	/* The student kit of the chosen game: header, local runner, opponents. */
	const kit = J.el('p', { id: 'kit' });
	const showKit = () => {
		const g = games.find(x => x.name === select.value);
		kit.replaceChildren(...(g && g.kit ? ['Write and try your player at home with the ',
			J.el('a', { href: g.kit, download: '' }, g.title + ' student kit'),
			' (needs only gcc and make: unpack, read README.md, make, ./Game).'] : []));
	};
	select.onchange = showKit;
	showKit();
	main.append(J.el('h1', {}, 'Upload a player'), kit, J.tokenField(), form, J.el('div', { id: 'message' }), box);
	form.onsubmit = async ev => {
		ev.preventDefault();
		J.setToken(document.getElementById('token').value);
		if (!file.files.length) { J.say('Choose your AIName.c first.', 'error'); return; }
		try {
			const source = await file.files[0].text();
			const r = await J.api('/api/submissions', { method: 'POST', json: { game: select.value, source } });
			J.say(r.unchanged ? 'This file is already your current submission ' + r.id + ' (player ' + r.player + '): nothing new was stored.'
				: 'Stored as submission ' + r.id + ' (player ' + r.player + '): following it...', 'ok');
			for (;;) {
				const s = await J.submissionDetail(box, r.id);
				if (FINAL.includes(s.state)) { J.say('Submission ' + r.id + ': ' + s.state.replace('_', ' '), s.state === 'qualified' ? 'ok' : 'error'); break; }
				await new Promise(done => setTimeout(done, 1000));
			}
		} catch (e) { J.say(e.message, 'error'); }
	};
};

pages.organiser = async main => {
	main.append(J.el('h1', {}, 'Organisers'), J.tokenField(() => location.reload()), J.el('div', { id: 'message' }));
	if (!J.token()) { J.say('Give an organiser\'s token.'); return; }
	const me = await J.api('/api/me');
	if (!me.organiser) { J.say('This token is a contestant\'s: these pages are for organisers.', 'error'); return; }
	const games = await J.api('/api/games');
	const act = async (path, json, done) => {
		try { const r = await J.api(path, { method: 'POST', json }); J.say(done(r), 'ok'); } catch (e) { J.say(e.message, 'error'); }
	};
	const gameSelect = id => J.el('select', { id }, games.map(g => J.el('option', { value: g.name }, g.title)));

	/* Plagiarism: pairs of a game, then one pair side by side. */
	const pg = gameSelect('plag-game'), pairs = J.el('div', { id: 'pairs' }), side = J.el('div', { id: 'pair' });
	const loadPairs = async () => {
		const list = await J.api('/api/organiser/plagiarism/' + pg.value + '?min=0.2');
		pairs.replaceChildren(J.table([
			{ key: 'similarity', label: 'Similar', num: true, cell: r => Math.round(r.similarity * 100) + '%' },
			{ key: 'a_name', label: 'File A', cell: r => r.a_name + ' (' + r.a_author + (r.a_label ? ', ' + r.a_label : '') + ')' },
			{ key: 'b_name', label: 'File B', cell: r => r.b_name + ' (' + r.b_author + (r.b_label ? ', ' + r.b_label : '') + ')' },
			{ key: 'longest', label: 'Longest run', num: true },
			{ key: 'flagged', label: '', cell: r => J.el('span', {}, r.flagged ? J.el('span', { className: 'badge warn' }, 'flagged') : '',
				J.el('button', { type: 'button', className: 'plain', onclick: () => showPair(r.a, r.b) }, 'side by side')) },
		], list, { sortKey: 'similarity', empty: 'no similar pairs' }));
	};
	const showPair = async (a, b) => {
		const p = await J.api('/api/organiser/pair/' + a + '?b=' + b);
		const pane = d => {
			const pre = J.el('pre');
			d.source.split('\n').forEach((line, i) => {
				const n = i + 1, hit = n >= d.first_line && n <= d.last_line;
				pre.append(J.el('span', { className: hit ? 'hit' : '' }, String(n).padStart(4) + '  ' + line + '\n'));
			});
			return J.el('div', {}, J.el('h2', {}, d.name + ' by ' + d.author + (d.label ? ' (' + d.label + ')' : '')), pre);
		};
		side.replaceChildren(J.el('p', {}, Math.round(p.similarity * 100) + '% similar; the longest shared fragment is marked.'),
			J.el('div', { className: 'side' }, pane(p.a), pane(p.b)));
		/* Each file scrolled to where the shared fragment starts. */
		side.querySelectorAll('pre').forEach(pre => {
			const hit = pre.querySelector('.hit');
			if (hit) pre.scrollTop = hit.offsetTop - pre.offsetTop - 40;
		});
	};
	pg.onchange = loadPairs;
	main.append(J.el('h2', {}, 'Plagiarism'), J.el('div', { className: 'row' }, pg), pairs, side);
	await loadPairs();

	const dg = gameSelect('dq-game'), dn = J.el('input', { id: 'dq-name', placeholder: 'player name' }),
		dr = J.el('input', { id: 'dq-reason', placeholder: 'reason the player will read', size: 40 });
	main.append(J.el('h2', {}, 'Disqualify a player'), J.el('form', { className: 'row', id: 'disqualify', onsubmit: ev => {
		ev.preventDefault();
		act('/api/organiser/disqualify', { game: dg.value, name: dn.value, reason: dr.value }, r => r.name + ' is disqualified from ' + r.game);
	} }, dg, dn, dr, J.el('button', { type: 'submit' }, 'Disqualify')));

	const rs = J.el('input', { id: 'rejudge-id', placeholder: 'submission id', size: 12 }), rg = gameSelect('rejudge-game');
	main.append(J.el('h2', {}, 'Rejudge'), J.el('div', { className: 'row' }, rs,
		J.el('button', { type: 'button', onclick: () => act('/api/organiser/rejudge', { submission: Number(rs.value) }, r => 'submission ' + r.submission + ' queued again') }, 'Rejudge submission'),
		rg, J.el('button', { type: 'button', onclick: () => {
			if (confirm('Rejudge every match of ' + rg.value + '? Its ratings start over.'))
				act('/api/organiser/rejudge', { game: rg.value }, r => r.requeued + ' submissions of ' + r.game + ' queued again');
		} }, 'Rejudge the whole game')));

	const tokens = await J.api('/api/organiser/tokens');
	main.append(J.el('h2', {}, 'Tokens'), J.el('p', { className: 'muted' }, 'New tokens: judge token add --author NAME [--organiser] on the judge\'s machine.'),
		J.table([
			{ key: 'id', label: 'Id', num: true }, { key: 'author', label: 'Author' },
			{ key: 'organiser', label: 'Role', cell: r => r.organiser ? 'organiser' : 'contestant' },
			{ key: 'created_at', label: 'Created', cell: r => J.time(r.created_at) },
			{ key: 'revoked_at', label: '', cell: r => r.revoked_at ? 'revoked ' + J.time(r.revoked_at)
				: J.el('button', { type: 'button', className: 'plain', onclick: () => act('/api/organiser/tokens/' + r.id + '/revoke', {}, () => 'token ' + r.id + ' revoked') }, 'Revoke') },
		], tokens, { id: 'tokens', sortKey: 'id' }));
};

window.addEventListener('DOMContentLoaded', async () => {
	const main = document.querySelector('main');
	J.header();
	try {
		await pages[document.body.dataset.page](main);
	} catch (e) {
		main.append(J.el('p', { id: 'failure', className: 'error' }, e.message));
		/* A page the organisers made private: the token field, here, rather
		 * than a header to send. */
		if (e.status === 401 && !document.getElementById('token'))
			main.append(J.el('p', {}, 'Give the token the organisers sent you; it is kept in this browser.'),
				J.tokenField(() => location.reload()));
		if (e.status !== 401 && e.status !== 403 && e.status !== 404) J.errors.push(e.message);
	}
	document.body.dataset.ready = '1';
	document.body.dataset.errors = JSON.stringify(J.errors);
});
