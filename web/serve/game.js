/* A game's page (/games/GAME): the limits and parameters in force on this
 * judge, the header a player compiles against, and the rules page.  The
 * rules are Markdown, shown through a small reader that only ever makes
 * elements and text nodes: no text of the page becomes markup. */
'use strict';

/* `code`, **bold** and [text](address) inside a line; a link keeps only
 * its text (the addresses point into the judge's docs/ folder). */
J.inline = text => {
	const out = [];
	const re = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\([^)]*\)/g;
	let at = 0, m;
	while ((m = re.exec(text))) {
		out.push(text.slice(at, m.index));
		out.push(m[1] !== undefined ? J.el('code', {}, m[1]) : m[2] !== undefined ? J.el('strong', {}, m[2]) : m[3]);
		at = re.lastIndex;
	}
	out.push(text.slice(at));
	return out;
};

const tableCells = line => line.trim().replace(/^\||\|$/g, '').split('|').map(c => c.trim());

/* Headings, fenced code, tables, lists and paragraphs. */
J.markdown = text => {
	const box = J.el('div', { className: 'rules' }), lines = text.split('\n');
	let i = 0;
	const take = test => { const got = []; while (i < lines.length && test(lines[i])) got.push(lines[i++]); return got; };
	while (i < lines.length) {
		const line = lines[i], h = /^(#{1,4})\s+(.*)$/.exec(line);
		if (h) { box.append(J.el('h' + (h[1].length + 1), {}, J.inline(h[2]))); i++; }
		else if (/^```/.test(line)) {
			i++;
			box.append(J.el('pre', {}, take(l => !/^```/.test(l)).join('\n')));
			i++;
		} else if (/^\s*\|/.test(line)) {
			const rows = take(l => /^\s*\|/.test(l)).filter(l => !/^\s*\|[\s:|-]+\|\s*$/.test(l)).map(tableCells);
			box.append(J.el('table', {}, J.el('thead', {}, J.el('tr', {}, rows[0].map(c => J.el('th', {}, J.inline(c))))),
				J.el('tbody', {}, rows.slice(1).map(r => J.el('tr', {}, r.map(c => J.el('td', {}, J.inline(c))))))));
		} else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
			const items = take(l => /^\s*([-*]|\d+\.)\s/.test(l) || /^\s{2,}\S/.test(l));
			const merged = items.reduce((all, l) => /^\s*([-*]|\d+\.)\s/.test(l) ? [...all, l.replace(/^\s*([-*]|\d+\.)\s+/, '')]
				: (all[all.length - 1] += ' ' + l.trim(), all), []);
			box.append(J.el('ul', {}, merged.map(t => J.el('li', {}, J.inline(t)))));
		} else if (line.trim() === '') i++;
		else box.append(J.el('p', {}, J.inline(take(l => l.trim() !== '' && !/^(#|```|\s*\||\s*([-*]|\d+\.)\s)/.test(l)).join(' '))));
	}
	return box;
};

pages.game = async main => {
	const g = await J.api('/api/games/' + encodeURIComponent(J.segment(2)));
	document.title = g.title;
	const l = g.limits, budget = ms => ms ? (ms / 1000).toFixed(ms % 1000 ? 2 : 0) + ' s' : 'none of its own';
	const limits = [
		['CPU time per match', budget(l.cpu_ms), 'each player, for the whole match; a player over it is frozen'],
		['CPU time per turn', budget(l.turn_cpu_ms), 'from the view to the orders'],
		['CPU time at the start', budget(l.start_cpu_ms), 'up to the name'],
		['Memory', l.memory_mb + ' MiB', 'address space of a player'],
		['Rounds', l.rounds === undefined ? '' : String(l.rounds), ''],
		['Players in a match', l.min_players === l.max_players ? String(l.min_players) : l.min_players + ' to ' + l.max_players, ''],
	];
	const sheet = J.el('section', { id: 'sheet' });
	main.append(sheet);
	sheet.append(J.el('h1', {}, g.title),
		J.el('p', {}, g.uploads ? J.link('/upload', 'Upload a player') : 'This judge takes no uploads of ' + g.title + '.',
			g.kit ? [' · ', J.el('a', { href: g.kit, download: '' }, 'student kit')] : null),
		J.el('h2', {}, 'Limits in force on this judge'),
		J.el('table', { id: 'limits' }, J.el('tbody', {}, limits.map(([k, v, why]) =>
			J.el('tr', {}, J.el('th', {}, k), J.el('td', { className: 'num' }, v), J.el('td', { className: 'muted' }, why))))));
	if (l.error)
		sheet.append(J.el('p', { className: 'error' }, 'The organisers\' parameters file does not parse: ' + l.error));
	if (l.params)
		sheet.append(J.el('h2', {}, 'Parameters'), J.el('p', { className: 'muted' }, g.params_file === null
			? 'The game\'s defaults.' : 'As the organisers set them in config/games/' + g.name + '.cnf.'),
			J.el('table', { id: 'params' }, J.el('tbody', {}, Object.entries(l.params).map(([k, v]) =>
				J.el('tr', {}, J.el('th', {}, k), J.el('td', { className: 'num' }, typeof v === 'object' ? JSON.stringify(v) : String(v)))))));
	if (g.header.text !== null)
		sheet.append(J.el('h2', {}, 'The header: ' + g.header.file),
			J.el('details', {}, J.el('summary', {}, '#include "' + g.header.file + '": the API your player compiles against'),
				J.el('pre', { id: 'header' }, g.header.text)));
	main.append(J.el('h2', {}, 'Rules'), g.rules === null ? J.el('p', { className: 'muted' }, 'This judge has no rules page for ' + g.title + '.')
		: Object.assign(J.markdown(g.rules), { id: 'rules' }));
};
