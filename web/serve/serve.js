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
/* A page written by the command line (`judge leaderboard --html`, `judge
 * plagiarism --html`) carries its data, as the API would answer it, in
 * <script id="page-data">, and is a file alone: no API, no other page;
 * each match is replay-ID.html beside it. */
J.embedded = (() => {
	const e = document.getElementById('page-data');
	return e ? JSON.parse(e.textContent) : null;
})();
J.data = async path => J.embedded || J.api(path);

J.link = (href, text) => J.el('a', { href }, text);
J.playerLink = (name, game) => J.embedded ? name :
	J.link('/players/' + encodeURIComponent(name) + (game ? '?game=' + encodeURIComponent(game) : ''), name);
J.matchLink = id => J.link(J.embedded ? 'replay-' + id + '.html' : '/matches/' + id, '#' + id);

/* The judge's words, explained where they appear (a title, a legend). */
J.words = {
	queued: 'waiting for a worker to compile it',
	compiling: 'being compiled',
	compile_failed: 'it did not compile: the compile log says why',
	qualifying: 'playing its qualifying matches against a shipped player; passing them puts it on the leaderboard',
	qualified: 'it passed its qualifying matches: it is on the leaderboard and plays ranked matches',
	not_qualified: 'it lost its qualifying matches, so it is not on the leaderboard; an earlier qualified version plays on',
	superseded: 'a newer version of this player took its place; its matches and rating are kept',
	ranked: 'a rated match of the ladder: it changes the ratings',
	challenge: 'an unrated match you asked for: it changes no rating',
	comparison: 'an unrated match of a version comparison',
	tournament: 'a match of a tournament',
	mu: 'mu: the skill the judge estimates for the player',
	sigma: 'sigma: how unsure that estimate still is; it shrinks as the player plays',
	score: 'score = mu - 3 sigma: a skill the player very likely has at least; the leaderboard ranks by it',
};
J.legend = () => J.el('p', { className: 'muted legend' }, 'mu is the skill the judge estimates, sigma how unsure it still is '
	+ '(it shrinks with every game); score = mu - 3 sigma, a skill the player very likely has, ranks the leaderboard.');

J.stateBadge = state => {
	const kind = { qualified: 'good', compile_failed: 'bad', not_qualified: 'bad', superseded: '' }[state];
	return J.el('span', { className: 'badge ' + (kind === undefined ? 'warn' : kind), title: J.words[state] || '' },
		state.replace('_', ' '));
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
		className: (c.num ? 'num ' : '') + (c.key ? 'sortable' : ''), title: c.title || '',
		onclick: () => { if (!c.key) return; dir = sortKey === c.key ? -dir : 1; sortKey = c.key; fill(); },
	}, c.label));
	const fill = () => {
		const filter = (opts.filter ? opts.filter() : '').toLowerCase();
		let list = rows.filter(r => !filter || (opts.text ? opts.text(r) : '').toLowerCase().includes(filter));
		if (opts.keep) list = list.filter(opts.keep);
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
	const b = await J.data('/api/leaderboard/' + encodeURIComponent(J.segment(2)));
	const game = b.game;
	document.title = b.title + ' leaderboard';
	main.append(J.el('h1', {}, b.title + ' leaderboard'));
	main.append(J.legend(), J.el('p', { className: 'muted' }, 'Read ' + J.time(b.generated_at) + '.'));
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
		{ key: 'score', label: 'Score', num: true, title: J.words.score, cell: r => J.num(r.score) },
		{ key: 'mu', label: 'mu', num: true, title: J.words.mu, cell: r => J.num(r.mu) },
		{ key: 'sigma', label: 'sigma', num: true, title: J.words.sigma, cell: r => J.num(r.sigma) },
		{ key: 'games', label: 'Games', num: true },
		{ key: 'wins', label: 'Wins', num: true },
	];
	if (b.rows.some(r => r.recent))
		cols.push({ label: 'Watch', title: 'the player\'s latest matches', cell: r =>
			J.el('span', { className: 'recent' }, (r.recent || []).flatMap(id => [J.matchLink(id), ' '])) });
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

/* Score (mu - 3 sigma) and mu after each rated game, as an SVG plot with
 * labelled axes; a dotted line marks where each version (version(id) its
 * label) started. */
J.plot = (history, version = id => '#' + id) => {
	const W = 900, H = 280, L = 64, R = 12, T = 22, B = 44;
	const svg = J.svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'plot', id: 'plot', role: 'img',
				   'aria-label': 'rating over time' });
	const text = (attrs, words) => {
		const t = J.svg('text', attrs);
		t.textContent = words;
		svg.append(t);
	};
	if (!history.length) {
		text({ x: W / 2, y: H / 2, 'text-anchor': 'middle' }, 'no rated games yet');
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
		text({ x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, v.toFixed(1));
	}
	svg.append(J.svg('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }));
	svg.append(J.svg('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }));
	text({ x: 14, y: (T + H - B) / 2, 'text-anchor': 'middle', class: 'axis-label',
	       transform: `rotate(-90 14 ${(T + H - B) / 2})` }, 'rating');
	text({ x: (L + W - R) / 2, y: H - 22, 'text-anchor': 'middle', class: 'axis-label' },
	     'rated games, oldest to newest (' + history.length + ')');
	history.forEach((h, i) => {
		if (i && h.submission === history[i - 1].submission) return;
		const g = J.svg('g', { class: 'version-start', 'data-submission': h.submission });
		g.append(J.svg('line', { x1: x(i), x2: x(i), y1: T - 4, y2: H - B }));
		const t = J.svg('text', { x: x(i) + 3, y: T - 8 });
		t.textContent = version(h.submission) + ' starts';
		g.append(t);
		svg.append(g);
	});
	const path = key => history.map((h, i) => (i ? 'L' : 'M') + x(i).toFixed(1) + ' ' + y(h[key]).toFixed(1)).join(' ');
	svg.append(J.svg('path', { d: path('mu'), class: 'mu' }));
	svg.append(J.svg('path', { d: path('score'), class: 'score' }));
	text({ x: W - R, y: H - 6, 'text-anchor': 'end' }, 'score (solid), mu (dashed), a new version (dotted)');
	return svg;
};

/* A player of a match: a link to its page, or a shipped player's name. */
J.seatName = (o, game) => o.submission === null
	? J.el('span', { title: 'a player shipped with the game' }, o.name) : J.playerLink(o.name, game);

/* "v2 (#14)": which of a player's versions (its submissions, oldest
 * first) a submission is. */
J.versionLabel = (submissions, id) => {
	const ids = submissions.map(s => s.id).sort((a, b) => a - b);
	const n = ids.indexOf(id);
	return n < 0 ? '#' + id : 'v' + (n + 1) + ' (#' + id + ')';
};

/* One's matches: who played against whom, won or lost, the rank and score,
 * which version played; a box keeps only the losses.  The table, with the
 * box above it, in a section. */
J.matchesTable = (matches, id, game, opts = {}) => {
	const losses = J.el('input', { type: 'checkbox', id: id + '-losses' });
	const t = J.table([
		{ key: 'match', label: 'Match', num: true, cell: r => J.matchLink(r.match) },
		{ key: 'kind', label: 'Kind', cell: r => J.el('span', { title: J.words[r.kind] || '' }, r.kind) },
		{ key: 'created_at', label: 'When', cell: r => J.time(r.created_at) },
		...(opts.versions ? [{ key: 'submission', label: 'Version', cell: r => opts.versions(r.submission) }] : []),
		{ key: 'opponents', label: 'Opponents', cell: r => J.el('span', { className: 'opponents' },
			(r.opponents || []).flatMap((o, i) => [i ? ', ' : '', J.seatName(o, game)])) },
		{ key: 'won', label: 'Result', cell: r => J.el('span', { className: 'badge result ' + (r.won ? 'good' : 'bad'),
			title: r.won ? 'ranked first' : 'ranked ' + r.rank + ' of ' + r.players }, r.won ? 'won' : 'lost') },
		{ key: 'rank', label: 'Rank', num: true, title: '1 is first; players with the same score share a rank', cell: r => r.rank + ' of ' + r.players },
		{ key: 'score', label: 'Score', num: true, title: 'the game\'s score of this player at the end of the match' },
		{ key: 'seed', label: 'Seed', num: true, cell: r => r.seed },
		{ key: 'verdict', label: 'Frozen', title: 'a player that crashed, ran out of time or broke a rule is frozen: it stops playing', cell: r => r.verdict ? r.verdict + (r.reason ? ': ' + r.reason : '') : '' },
		...(opts.more || []),
	], matches, { id, empty: 'no matches yet', keep: r => !losses.checked || !r.won, rowClass: r => r.won ? 'won' : 'lost' });
	losses.onchange = () => t.refresh();
	const lost = matches.filter(r => !r.won).length;
	return J.el('section', { className: 'matches' }, J.el('div', { className: 'row' }, losses,
		J.el('label', { htmlFor: id + '-losses' }, 'Only the matches lost (' + lost + ' of ' + matches.length + ')')), t);
};

pages.player = async main => {
	const name = J.segment(2), game = J.query('game');
	const p = await J.api('/api/players/' + encodeURIComponent(name) + (game ? '?game=' + encodeURIComponent(game) : ''));
	document.title = p.name + ' (' + p.game + ')';
	main.append(J.el('h1', {}, p.name, J.el('span', { className: 'muted' }, ' in ' + p.game)));
	main.append(J.el('p', {}, 'Author: ', J.el('span', { id: 'author' }, p.author),
		p.disqualifications.length ? J.el('span', { className: 'badge bad' }, 'disqualified: ' + p.disqualifications[0].reason) : null));
	const version = id => J.versionLabel(p.submissions, id);
	main.append(J.el('h2', {}, 'Rating over time'), J.plot(p.history, version), J.legend());
	main.append(J.el('h2', {}, 'Matches'), J.matchesTable(p.matches, 'matches', p.game, { versions: version }));
	/* one's own versions open on My submissions; others' are private */
	const me = J.token() ? await J.api('/api/me').catch(() => ({})) : {};
	const mine = me.organiser || me.author === p.author;
	main.append(J.el('h2', {}, 'Versions'), J.table([
		{ key: 'id', label: 'Version', num: true, cell: r => mine ? J.link('/submissions/' + r.id, version(r.id)) : version(r.id) },
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
		J.el('h2', {}, 'Submission ' + s.id + ': ', J.playerLink(s.name, s.game), ' (' + s.game + ')'),
		J.el('p', { id: 'state' }, 'State: ', J.stateBadge(s.state), ' ',
			J.el('span', { className: 'muted' }, 'updated ' + J.time(s.updated_at))),
		dq,
		s.qualify_note ? J.el('p', { id: 'qualify-note' }, 'Qualification: ' + s.qualify_note) : '',
		s.rating ? J.el('p', {}, 'Rating: mu ' + J.num(s.rating.mu) + ', sigma ' + J.num(s.rating.sigma) + ', ' + s.rating.games + ' games, ' + s.rating.wins + ' wins') : '',
		J.el('h2', {}, 'Compile log'),
		J.el('pre', { id: 'compile-log' }, s.compile_log === null ? '(not compiled yet)' : s.compile_log || '(empty: no warnings)'),
		J.el('h2', {}, 'Matches'),
		J.el('p', { className: 'muted' }, 'Your player\'s stderr of a match, as the judge kept it, is under "Log"; the command of a match (its seed, its seats in order) plays it again. When your player froze (or, in AIC2018, one of its units crashed while the team played on), "Why it froze" saves what it was given at that turn and the replay, for judge repro on your machine (see the contestants\' guide).'),
		J.matchesTable(s.matches, 'my-matches', s.game, { more: [
			{ label: 'Play it again', cell: r => commands.get(r.match) || '' },
			{ label: 'Log', cell: r => r.has_log ? J.el('a', { href: '#seat-log', className: 'log-link', onclick: () => J.showLog(r.match, r.seat) }, 'log') : '' },
			{ label: 'Why it froze', cell: r => r.has_fault ? J.el('a', { href: '#', className: 'fault-link', title: 'judge repro --record fault-' + r.match + '-' + r.seat + '.json --replay replay-' + r.match + '.json --player ' + s.name + ' --asan', onclick: e => { e.preventDefault(); J.downloadFault(r.match, r.seat); } }, 'record') : '' },
		] }),
		J.el('h2', { id: 'log-title' }, 'Log'),
		J.el('pre', { id: 'seat-log' }, '(choose a match\'s log above)'),
		['qualifying', 'qualified', 'not_qualified'].includes(s.state) ? await J.challengeForm(box, s) : '',
		J.compareBox(s),
		await J.sourceBox(s));
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

/* A file of one's own, as text (the API's answer, not JSON). */
J.source = async id => {
	const r = await fetch('/api/submissions/' + id + '/source', { headers: { Authorization: 'Bearer ' + J.token() } });
	const text = await r.text();
	if (!r.ok) throw new Error(JSON.parse(text).error);
	return text;
};

/* Two texts line by line, as rows [{a, b, kind}] (kind '' same, 'del' only
 * in a, 'add' only in b, 'change' both): the longest common subsequence
 * of lines, so the work is bounded; null when the files are too long for
 * it in a page (then `diff` on one's machine does it). */
J.DIFF_CELLS = 4e6;
J.lineDiff = (a, b) => {
	const x = a.split('\n'), y = b.split('\n'), n = x.length, m = y.length;
	if ((n + 1) * (m + 1) > J.DIFF_CELLS) return null;
	const w = m + 1, len = new Uint32Array((n + 1) * w);
	for (let i = n - 1; i >= 0; i--)
		for (let j = m - 1; j >= 0; j--)
			len[i * w + j] = x[i] === y[j] ? len[(i + 1) * w + j + 1] + 1 : Math.max(len[(i + 1) * w + j], len[i * w + j + 1]);
	const rows = [];
	let i = 0, j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && x[i] === y[j]) rows.push({ a: x[i++], b: y[j++], kind: '' });
		else if (j < m && (i === n || len[i * w + j + 1] >= len[(i + 1) * w + j])) rows.push({ a: null, b: y[j++], kind: 'add' });
		else rows.push({ a: x[i++], b: null, kind: 'del' });
	}
	return rows;
};

/* The diff as two columns, the old version left, the new right: each
 * change with J.DIFF_CONTEXT same lines around it, longer runs of same
 * lines folded into one row that says how many. */
J.DIFF_CONTEXT = 3;
J.diffView = (rows, left, right) => {
	const cell = (text, kind, n) => J.el('div', { className: text === null ? 'gap' : kind },
		text === null ? '' : String(n).padStart(4) + '  ' + text);
	const view = J.el('div', { className: 'diff', id: 'diff' }, J.el('div', { className: 'head' }, left), J.el('div', { className: 'head' }, right));
	const near = rows.map(() => false);
	rows.forEach((r, i) => {
		if (!r.kind) return;
		for (let k = Math.max(0, i - J.DIFF_CONTEXT); k <= Math.min(rows.length - 1, i + J.DIFF_CONTEXT); k++) near[k] = true;
	});
	let na = 0, nb = 0, folded = 0;
	const fold = () => {
		if (folded) view.append(J.el('div', { className: 'fold' }, folded + ' same lines'), J.el('div', { className: 'fold' }, ''));
		folded = 0;
	};
	rows.forEach((r, i) => {
		na += r.a !== null;
		nb += r.b !== null;
		if (!near[i]) { folded++; return; }
		fold();
		view.append(cell(r.a, r.kind, na), cell(r.b, r.kind, nb));
	});
	fold();
	return view;
};

/* My file of this submission: downloadable, and side by side with another
 * of my versions of the same player. */
J.sourceBox = async s => {
	let text;
	try { text = await J.source(s.id); } catch (e) { return J.el('p', { className: 'muted' }, 'Source: ' + e.message); }
	const file = 'AI' + s.name + '.c';
	const link = J.el('a', { id: 'download-source', download: file,
		href: URL.createObjectURL(new Blob([text], { type: 'text/plain' })) }, 'Download ' + file);
	const others = (await J.api('/api/submissions').catch(() => []))
		.filter(o => o.id !== s.id && o.game === s.game && o.name === s.name && o.state !== 'queued');
	const pick = J.el('select', { id: 'diff-with' }, J.el('option', { value: '' }, 'choose a version'),
		others.map(o => J.el('option', { value: o.id }, '#' + o.id + ' (' + o.state.replace('_', ' ') + ', ' + J.time(o.created_at) + ')')));
	const out = J.el('div', { id: 'diff-box' });
	pick.onchange = async () => {
		if (!pick.value) { out.replaceChildren(); return; }
		const other = Number(pick.value);
		const [old, now] = other < s.id ? [await J.source(other), text] : [text, await J.source(other)];
		const [a, b] = other < s.id ? [other, s.id] : [s.id, other];
		const rows = J.lineDiff(old, now);
		const changed = rows ? rows.filter(r => r.kind).length : 0;
		out.replaceChildren(rows ? J.el('p', { id: 'diff-summary' }, changed ? changed + ' lines differ between #' + a + ' and #' + b + ' (older left)' : 'The two files are the same.')
			: J.el('p', { className: 'error' }, 'These files are too long to compare here: download both and run diff on your machine.'),
			rows ? J.diffView(rows, '#' + a + ' (older)', '#' + b) : '');
	};
	return J.el('section', { id: 'source-box' }, J.el('h2', {}, 'Source'),
		J.el('p', {}, link, J.el('span', { className: 'muted' }, ' (only you and the organisers can download it)')),
		others.length ? J.el('div', { className: 'row' }, J.el('label', { htmlFor: 'diff-with' }, 'Compare line by line with'), pick)
			: J.el('p', { className: 'muted' }, 'No other version of ' + s.name + ' to compare with yet.'), out);
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
		{ key: 'game', label: 'Game' }, { key: 'name', label: 'Player', cell: r => J.playerLink(r.name, r.game) },
		{ key: 'state', label: 'State', cell: r => J.el('span', {}, J.stateBadge(r.state),
			r.disqualified ? J.el('span', { className: 'badge bad' }, 'disqualified') : null) },
		{ key: 'created_at', label: 'Sent', cell: r => J.time(r.created_at) },
	], list, { id: 'mine', empty: 'no submissions yet: upload one' }));
	const box = J.el('section', { id: 'detail' });
	main.append(box);
	/* the version in play: the newest that is not out of the running */
	const current = list.find(r => ['queued', 'compiling', 'qualifying', 'qualified'].includes(r.state)) || list[0];
	const id = J.segment(2) || (current && current.id);
	if (id) await J.submissionDetail(box, id);
};

const FINAL = ['compile_failed', 'qualified', 'not_qualified', 'superseded'];

pages.upload = async main => {
	const all = await J.api('/api/games'), games = all.filter(g => g.uploads !== false);
	const select = J.el('select', { id: 'game' }, games.map(g => J.el('option', { value: g.name }, g.title)));
	const file = J.el('input', { type: 'file', id: 'file', accept: '.c,text/x-c' });
	const send = J.el('button', { type: 'submit', id: 'send' }, 'Upload');
	const box = J.el('section', { id: 'detail' });
	const form = J.el('form', { className: 'row', id: 'upload' }, J.el('label', { htmlFor: 'game' }, 'Game'), select,
		J.el('label', { htmlFor: 'file' }, 'File'), file, send);
	/* The student kit of the chosen game: header, local runner, opponents. */
	const kit = J.el('p', { id: 'kit' }), rules = J.el('p', { id: 'game-page' });
	const showKit = () => {
		const g = games.find(x => x.name === select.value);
		rules.replaceChildren(...(g ? [J.el('a', { href: '/games/' + g.name, id: 'rules' }, g.title + ': the rules, the header and the limits in force here')] : []));
		kit.replaceChildren(...(g && g.kit ? ['Write and try your player at home with the ',
			J.el('a', { href: g.kit, download: '' }, g.title + ' student kit'),
			' (needs only gcc and make: unpack, read README.md, make, ./Game).'] : []));
	};
	select.onchange = showKit;
	showKit();
	main.append(J.el('h1', {}, 'Upload a player'), rules, kit, J.tokenField(), form, J.el('div', { id: 'message' }), box);
	const title = name => (all.find(g => g.name === name) || { title: name }).title;
	const open = name => games.some(g => g.name === name);
	/* the game whose header the file includes, as the compile step reads it */
	const headerGame = text => {
		const m = [...text.matchAll(/^\s*#\s*include\s*"(\w+)\.h"/gm)].map(x => x[1]).find(h => all.some(g => g.name === h));
		return m || null;
	};
	file.onchange = async () => {
		if (!file.files.length) return;
		const name = file.files[0].name, game = headerGame(await file.files[0].text());
		if (game && open(game)) { select.value = game; showKit(); }
		J.say(!game ? name + ' includes no game\'s header: it needs #include "GAME.h" of the game it plays.'
			: open(game) ? name + ' includes "' + game + '.h": a ' + title(game) + ' player.'
			: name + ' includes "' + game + '.h", but this judge takes no uploads of ' + title(game) + '.', game && open(game) ? '' : 'error');
	};
	form.onsubmit = async ev => {
		ev.preventDefault();
		J.setToken(document.getElementById('token').value);
		if (!file.files.length) { J.say('Choose your AIName.c first.', 'error'); return; }
		const name = file.files[0].name;
		try {
			const source = await file.files[0].text(), game = headerGame(source);
			if (game && !open(game)) {
				J.say(name + ' includes "' + game + '.h", but this judge takes no uploads of ' + title(game) + '.', 'error');
				return;
			}
			if (game && game !== select.value) {
				J.say(name + ' includes "' + game + '.h", the header of ' + title(game) + ', but the game chosen is '
					+ title(select.value) + ': choose ' + title(game) + ', or include "' + select.value + '.h".', 'error');
				return;
			}
			const r = await J.api('/api/submissions', { method: 'POST', json: { game: select.value, source } });
			J.say(r.unchanged ? name + ' is already your current submission ' + r.id + ' (player ' + r.player + '): nothing new was stored.'
				: name + ' is stored as submission ' + r.id + ' (player ' + r.player + '): following it...', 'ok');
			for (;;) {
				const s = await J.submissionDetail(box, r.id);
				if (FINAL.includes(s.state)) {
					J.say(name + ', submission ' + r.id + ': ' + s.state.replace('_', ' ') + ' (' + J.words[s.state] + ')', s.state === 'qualified' ? 'ok' : 'error');
					break;
				}
				await new Promise(done => setTimeout(done, 1000));
			}
		} catch (e) { J.say(name + ': ' + e.message, 'error'); }
	};
};

/* An address that is no page: the server's 404 page, with the address. */
pages.missing = async main => {
	document.getElementById('missing').prepend(J.el('code', { id: 'missing-path' }, location.pathname), ': ');
	main.append(J.el('p', { className: 'muted' }, 'Leaderboards, tournaments and your submissions are in the bar above.'));
};

pages.organiser = async main => {
	main.append(J.el('h1', {}, 'Organisers'), J.tokenField(() => location.reload()), J.el('div', { id: 'message' }));
	/* the plagiarism news (plag.js) comes first of the sections, under the token */
	const news = document.getElementById('plag-review');
	if (news) main.append(news);
	if (!J.token()) { J.say('Give an organiser\'s token.'); return; }
	const me = await J.api('/api/me');
	if (!me.organiser) { J.say('This token is a contestant\'s: these pages are for organisers.', 'error'); return; }
	const games = await J.api('/api/games');
	const act = async (path, json, done) => {
		try { const r = await J.api(path, { method: 'POST', json }); J.say(done(r), 'ok'); } catch (e) { J.say(e.message, 'error'); }
	};
	const gameSelect = id => J.el('select', { id }, games.map(g => J.el('option', { value: g.name }, g.title)));

	await J.plagSection(main, gameSelect('plag-game')); /* plag.js */

	const rs = J.el('input', { id: 'rejudge-id', placeholder: 'submission id', size: 12 }), rg = gameSelect('rejudge-game');
	main.append(J.el('h2', {}, 'Rejudge'), J.el('div', { className: 'row' }, rs,
		J.el('button', { type: 'button', onclick: () => act('/api/organiser/rejudge', { submission: Number(rs.value) }, r => 'submission ' + r.submission + ' queued again') }, 'Rejudge submission'),
		rg, J.el('button', { type: 'button', onclick: () => {
			if (confirm('Rejudge every match of ' + rg.value + '? Its ratings start over.'))
				act('/api/organiser/rejudge', { game: rg.value }, r => r.requeued + ' submissions of ' + r.game + ' queued again');
		} }, 'Rejudge the whole game')));

	await J.people(main, games, act); /* people.js */
};

window.addEventListener('DOMContentLoaded', async () => {
	const main = document.querySelector('main');
	if (!J.embedded)
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
