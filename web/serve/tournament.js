/* The tournaments' pages: the list, and one tournament drawn from
 * /api/tournaments/NAME (every phase as the judge reads its record: an
 * elimination's rounds, a bracket, round-robin groups).  While a phase is
 * under way the page asks again every few seconds and draws itself anew.
 * Runs after serve.js, whose J and pages it uses; every name is put in as
 * text. */
'use strict';

J.TOUR_REFRESH_MS = 5000;

pages.tournaments = async main => {
	const list = await J.api('/api/tournaments');
	main.append(J.el('h1', {}, 'Tournaments'));
	main.append(J.table([
		{ key: 'name', label: 'Tournament', cell: r => J.link('/tournaments/' + encodeURIComponent(r.name), r.name) },
		{ key: 'game', label: 'Game' },
		{ key: 'phase', label: 'Now', cell: r => r.over ? 'over'
			: 'phase ' + (r.phase + 1) + (r.started_at ? ', round ' + (r.round + 1) : ', waiting to start') },
		{ key: 'created_at', label: 'Created', cell: r => J.time(r.created_at) },
	], list, { id: 'tournaments', empty: 'no tournament yet' }));
};

/* Who an id is: an entrant's name, the phase's opponent (0), a bye. */
J.tourNamer = (t, phase) => {
	const byId = new Map(t.entrants.map(e => [e.id, e]));
	return id => {
		if (id === null || id === undefined) return J.el('span', { className: 'muted' }, 'to be decided');
		if (id === 0) return J.el('span', { className: 'muted opponent' }, phase && phase.opponent ? phase.opponent : 'bye');
		const e = byId.get(id);
		return J.el('span', { className: 'entrant' }, e ? e.name : '#' + id);
	};
};

J.tourState = e => {
	if (e.state !== 'out') return e.state;
	const where = 'out in phase ' + (e.out_phase + 1);
	return e.out_round < 0 ? where + ', before its first match' : where + ', round ' + (e.out_round + 1);
};

/* Still in first, then whoever lasted longer; a place decides among equals. */
J.tourOrder = (a, b) => {
	const lasted = e => e.state === 'out' ? e.out_phase * 1e6 + e.out_round : 1e12;
	return lasted(b) - lasted(a) || (a.place || 1e9) - (b.place || 1e9) || a.name.localeCompare(b.name);
};

J.tourStandings = t => {
	const groups = new Map();
	for (const e of t.entrants.slice().sort(J.tourOrder)) {
		if (!groups.has(e.group)) groups.set(e.group, []);
		groups.get(e.group).push(e);
	}
	const box = J.el('section', { id: 'standings' }, J.el('h2', {}, 'Standings' + (groups.size > 1 ? ' by group' : '')));
	for (const [group, rows] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
		if (groups.size > 1 || group) box.append(J.el('h3', {}, group ? 'Group ' + group : 'No group'));
		const cols = [
			{ key: 'rank', label: '#', num: true },
			{ key: 'name', label: t.pseudonyms ? 'Pseudonym' : 'Author' },
			{ key: 'state', label: 'State', cell: r => J.el('span', { className: 'badge ' + (r.state === 'in' ? 'good' : r.state === 'out' ? 'bad' : 'warn') }, J.tourState(r)) },
			{ key: 'place', label: 'Place', num: true, cell: r => r.place ? String(r.place) : '' },
		];
		if (!t.pseudonyms) cols.splice(2, 0, { key: 'player', label: 'Player', cell: r => r.player ? J.playerLink(r.player, t.game) : '' });
		box.append(J.table(cols, rows.map((r, i) => Object.assign({ rank: i + 1 }, r)),
			{ rowClass: r => r.state === 'out' ? 'out' : '' }));
	}
	return box;
};

/* A match's seats in order, each with its score; marks from mark(seat). */
J.tourSeats = (m, name, mark) => J.el('span', { className: 'seats' }, m.seats.map(s =>
	J.el('span', { className: 'seat' + (s.safe ? ' safe' : '') }, name(s.entrant),
		s.score !== null ? J.el('span', { className: 'score' }, String(s.score)) : null, mark ? mark(s, m) : null)));

J.tourMatch = m => m.match ? J.matchLink(m.match) : J.el('span', { className: 'muted' }, 'to play');

J.tourRound = (t, phase, r, open) => {
	const name = J.tourNamer(t, phase);
	const out = r.out !== null ? r.out : undefined;
	/* the match that put the student out: the last it played */
	const decider = r.stages.flatMap(st => st.matches).filter(m => m.seats.some(s => s.entrant === out)).pop();
	const box = J.el('details', { className: 'round', open, dataset: { round: r.round } },
		J.el('summary', {}, 'Round ' + (r.round + 1) + ': ',
			out !== undefined ? [name(out), ' is out', r.by_draw ? ' (by a draw: the players kept tying)' : '']
				: J.el('span', { className: 'muted' }, 'under way')));
	for (const st of r.stages) {
		box.append(J.el('h4', {}, st.stage === 0 ? 'Stage 1: everybody, in random groups' : 'Stage ' + (st.stage + 1) + ': those not yet safe, regrouped'));
		box.append(J.table([
			{ key: 'group', label: 'Group', num: true, cell: m => String(m.group + 1) },
			{ label: 'Seats and scores', cell: m => J.tourSeats(m, name, (s, at) =>
				s.safe ? J.el('span', { className: 'badge good' }, 'safe')
				: s.entrant === out && at === decider ? J.el('span', { className: 'badge bad' }, 'out') : null) },
			{ key: 'match', label: 'Match', cell: J.tourMatch },
		], st.matches));
	}
	return box;
};

J.tourElimination = (t, p) => {
	const box = J.el('div', { className: 'elimination' },
		J.el('p', { className: 'muted' }, 'Groups of the game\'s seats, ' + (p.opponent || 'the opponent') +
			' filling the last; better than two of three rivals is safe for the round; the rest regroup until one finishes behind all others and is out. Until ' + p.remain + ' remain.'));
	if (!p.rounds.length) box.append(J.el('p', { className: 'muted' }, 'no round yet'));
	const rounds = p.rounds.slice().reverse();
	rounds.forEach((r, i) => box.append(J.tourRound(t, p, r, i === 0)));
	return box;
};

/* A group's table of points and its matches. */
J.tourGroup = (t, p, g, title) => {
	const name = J.tourNamer(t, p);
	return J.el('div', { className: 'group' }, J.el('h3', {}, title),
		J.table([
			{ key: 'place', label: 'Place', num: true },
			{ label: 'Entrant', cell: r => name(r.entrant) },
			{ key: 'points', label: 'Points', num: true, cell: r => String(+r.points.toFixed(2)) },
			{ key: 'matches', label: 'Matches', num: true }, { key: 'firsts', label: 'Firsts', num: true },
		], g.standings),
		J.el('p', { className: 'matches' }, 'Matches: ', g.matches.length ? g.matches.flatMap(m => [J.tourMatch(m), ' ']) : 'none yet'));
};

J.tourRoundRobin = (t, p) => {
	const box = J.el('div', { className: 'round-robin' });
	if (!p.groups.length) box.append(J.el('p', { className: 'muted' }, 'the groups are dealt when the phase starts'));
	p.groups.forEach(g => box.append(J.tourGroup(t, p, g, 'Group ' + (g.group + 1))));
	if (p.final) box.append(J.tourGroup(t, p, p.final, 'Final'));
	return box;
};

/* The parts of a bracket, each drawn as columns of rounds. */
J.BRACKETS = [['Winners', 'W'], ['Losers', 'L'], ['Grand final', 'FR']];

J.tourSeries = (s, name) => {
	const line = k => J.el('div', { className: 'side' + (s.winner !== null && s.winner === s.players[k] ? ' won' : '') },
		name(s.players[k]), J.el('span', { className: 'wins' }, s.players[k] === 0 || s.players[k] === null ? '' : String(s.wins[k])));
	return J.el('div', { className: 'series' + (s.skipped ? ' skipped' : ''), dataset: { series: s.id } },
		line(0), line(1),
		J.el('div', { className: 'games' }, s.skipped ? 'not needed'
			: s.games.flatMap(g => [J.tourMatch(g), ' '])));
};

J.tourBracket = (t, p) => {
	const name = J.tourNamer(t, null);
	const box = J.el('div', { className: 'bracket-phase' },
		J.el('p', { className: 'muted' }, (p.double ? 'Double' : 'Single') + ' elimination, best of ' + p.best_of + '.'),
		p.champion !== null ? J.el('p', { id: 'champion' }, 'Champion: ', name(p.champion)) : null);
	if (!p.series.length) box.append(J.el('p', { className: 'muted' }, 'seeded when the phase starts'));
	const parts = J.el('div', { className: 'brackets' });
	for (const [title, kinds] of J.BRACKETS) {
		const mine = p.series.filter(s => kinds.includes(s.bracket));
		const columns = [...new Set(mine.map(s => s.bracket + s.round))];
		const label = c => c[0] === 'F' ? 'Final' : c[0] === 'R' ? 'If the losers\' champion wins' : 'Round ' + c.slice(1);
		if (mine.length) parts.append(J.el('div', { className: 'part' }, J.el('h3', {}, title),
			J.el('div', { className: 'bracket' }, columns.map(c => J.el('div', { className: 'column' },
				J.el('div', { className: 'muted' }, label(c)),
				J.el('div', { className: 'stack' }, mine.filter(s => s.bracket + s.round === c).map(s => J.tourSeries(s, name))))))));
	}
	box.append(parts);
	return box;
};

J.tourPhase = (t, p) => {
	const kinds = { elimination: J.tourElimination, 'round-robin': J.tourRoundRobin, bracket: J.tourBracket };
	const when = p.deadline ? ' (uploads close ' + J.time(p.deadline) + ')' : p.starts_at && p.state === 'waiting' ? ' (starts ' + J.time(p.starts_at) + ')' : '';
	return J.el('section', { className: 'phase', id: 'phase-' + (p.phase + 1) },
		J.el('h2', {}, 'Phase ' + (p.phase + 1) + ': ' + p.kind + ' ',
			J.el('span', { className: 'badge ' + (p.state === 'under way' ? 'good' : '') }, p.state), when),
		kinds[p.kind] ? kinds[p.kind](t, p) : null);
};

pages.tournament = async main => {
	const name = J.segment(2);
	const draw = async () => {
		const t = await J.api('/api/tournaments/' + encodeURIComponent(name));
		document.title = t.name + ' (' + t.title + ')';
		const live = t.phases.some(p => p.state === 'under way');
		const closed = new Set([...main.querySelectorAll('details.round:not([open])')].map(d => d.dataset.round));
		main.replaceChildren(J.el('h1', {}, t.name),
			J.el('p', { id: 'status' }, t.title + ': ' + (t.over ? 'over' : 'phase ' + (t.phase + 1) + ' of ' + t.phases.length),
				J.el('span', { className: 'muted' }, ' \u00b7 read ' + J.time(t.generated_at) + (live ? ', refreshed every ' + J.TOUR_REFRESH_MS / 1000 + ' s while a phase runs' : ''))),
			...t.phases.slice().reverse().filter(p => p.kind !== 'ladder' || p.state !== 'waiting').map(p => J.tourPhase(t, p)),
			J.tourStandings(t));
		for (const d of main.querySelectorAll('details.round'))
			if (closed.has(d.dataset.round)) d.open = false;
		return live;
	};
	const again = async () => {
		try {
			if (await draw()) setTimeout(again, J.TOUR_REFRESH_MS);
		} catch (e) {
			J.say(e.message, 'error');
			setTimeout(again, J.TOUR_REFRESH_MS);
		}
	};
	if (await draw()) setTimeout(again, J.TOUR_REFRESH_MS);
};
