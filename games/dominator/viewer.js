/* viewer.js - Dominator's board for the viewer: painted cells, walls,
 * farmers, knights and witches (games/dominator/engine/replay.c has the
 * format). */
'use strict';

(() => {
	const FARMER = 0, KNIGHT = 1, WITCH = 2;
	/* Direction d moves by DELTA[d]: 0 down, then round the compass. */
	const DELTA = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];

	function init(start) {
		const rows = start.board;
		const n = rows.length;
		const s = { n, wall: new Uint8Array(n * n), owner: new Int8Array(n * n).fill(-1),
			    type: [], who: [], row: [], col: [], health: [] };
		rows.forEach((line, r) => {
			for (let c = 0; c < n; c++) {
				const ch = line[c];
				if (ch === 'X')
					s.wall[r * n + c] = 1;
				else if (ch >= '0' && ch <= '9')
					s.owner[r * n + c] = ch.charCodeAt(0) - 48;
			}
		});
		for (const [id, type, owner, row, col, health] of start.units) {
			s.type[id] = type;
			s.who[id] = owner;
			s.row[id] = row;
			s.col[id] = col;
			s.health[id] = health;
		}
		return s;
	}

	function clone(s) {
		return { n: s.n, wall: s.wall, owner: s.owner.slice(), type: s.type, who: s.who.slice(),
			 row: s.row.slice(), col: s.col.slice(), health: s.health.slice() };
	}

	/* "moves": a letter per unit that stepped ('A'.. when it painted), a
	 * number for a run of units that did not. */
	function applyMoves(s, moves) {
		const before = s.who.slice();
		let id = 0;
		for (let i = 0; i < moves.length;) {
			const ch = moves.charCodeAt(i);
			if (ch >= 48 && ch <= 57) {
				let k = 0;
				while (i < moves.length && moves.charCodeAt(i) >= 48 && moves.charCodeAt(i) <= 57)
					k = k * 10 + moves.charCodeAt(i++) - 48;
				id += k;
				continue;
			}
			const painted = ch < 97, d = DELTA[ch - (painted ? 65 : 97)];
			if (d) {
				s.row[id] += d[0];
				s.col[id] += d[1];
				if (painted)
					s.owner[s.row[id] * s.n + s.col[id]] = before[id];
			}
			id++;
			i++;
		}
	}

	function apply(s, f) {
		applyMoves(s, typeof f.moves === 'string' ? f.moves : '');
		for (const [row, col, owner] of f.cells || [])
			s.owner[row * s.n + col] = owner;
		const h = f.health || [];
		for (let i = 0; i + 1 < h.length; i += 2)
			s.health[h[i]] = h[i + 1];
		for (const [id, row, col, health, owner] of f.units || []) {
			s.row[id] = row;
			s.col[id] = col;
			s.health[id] = health;
			s.who[id] = owner;
		}
	}

	function aspect() {
		return 1;
	}

	function full(s, id, p) {
		return s.type[id] === KNIGHT ? p.knight_health : p.farmer_health;
	}

	function drawUnit(ctx, g, s, id, colors, params) {
		const x = g.cx(s.col[id]), y = g.cy(s.row[id]), r = g.cs * 0.42;
		ctx.fillStyle = colors[s.who[id]];
		ctx.strokeStyle = '#1d2330';
		ctx.lineWidth = Math.max(1, g.cs / 14);
		ctx.beginPath();
		if (s.type[id] === FARMER) {
			ctx.arc(x, y, r * 0.75, 0, 2 * Math.PI);
		} else if (s.type[id] === KNIGHT) {
			ctx.moveTo(x, y - r);
			ctx.lineTo(x + r, y);
			ctx.lineTo(x, y + r);
			ctx.lineTo(x - r, y);
			ctx.closePath();
		} else {
			ctx.moveTo(x, y - r * 1.05);
			ctx.lineTo(x + r, y + r * 0.8);
			ctx.lineTo(x - r, y + r * 0.8);
			ctx.closePath();
		}
		ctx.fill();
		ctx.stroke();
		if (s.type[id] !== WITCH && params && g.cs >= 12)
			drawHealth(ctx, g, s.row[id], s.col[id], s.health[id] / full(s, id, params));
	}

	/* A wounded unit's health, a bar under it. */
	function drawHealth(ctx, g, row, col, part) {
		if (!(part < 1))
			return;
		const w = g.cs * 0.7, h = Math.max(2, g.cs / 9);
		const x = g.cx(col) - w / 2, y = g.y(row) + g.cs - h - 1;
		ctx.fillStyle = 'rgba(29,35,48,0.55)';
		ctx.fillRect(x, y, w, h);
		ctx.fillStyle = '#3ccf5a';
		ctx.fillRect(x, y, w * Math.max(0, part), h);
	}

	/* An active witch (no other witch within 2) haunts the cells within 2. */
	function drawHaunts(ctx, g, s, colors) {
		const witches = s.type.map((t, id) => id).filter((id) => s.type[id] === WITCH);
		for (const id of witches) {
			const near = witches.some((o) => o !== id &&
				Math.abs(s.row[o] - s.row[id]) + Math.abs(s.col[o] - s.col[id]) <= 2);
			if (near)
				continue;
			ctx.fillStyle = colors[s.who[id]];
			ctx.globalAlpha = 0.22;
			for (let dr = -2; dr <= 2; dr++)
				for (let dc = -2; dc <= 2; dc++) {
					const r = s.row[id] + dr, c = s.col[id] + dc;
					if (Math.abs(dr) + Math.abs(dc) > 2 || r < 0 || c < 0 || r >= s.n || c >= s.n ||
					    s.wall[r * s.n + c])
						continue;
					ctx.fillRect(g.x(c), g.y(r), g.cs, g.cs);
				}
			ctx.globalAlpha = 1;
		}
	}

	function draw(ctx, s, view) {
		const g = Viewer.grid(view.w, view.h, s.n, s.n);
		const light = view.colors.map((c) => Viewer.tint(c, 0.55));
		for (let r = 0; r < s.n; r++)
			for (let c = 0; c < s.n; c++) {
				const i = r * s.n + c;
				ctx.fillStyle = s.wall[i] ? '#3a4150' : s.owner[i] >= 0 ? light[s.owner[i]] : '#f4f1ea';
				ctx.fillRect(g.x(c), g.y(r), g.cs, g.cs);
			}
		ctx.strokeStyle = 'rgba(40,50,70,0.08)';
		ctx.lineWidth = 1;
		ctx.beginPath();
		for (let k = 0; k <= s.n; k++) {
			ctx.moveTo(g.x(k) + 0.5, g.oy);
			ctx.lineTo(g.x(k) + 0.5, g.y(s.n));
			ctx.moveTo(g.ox, g.y(k) + 0.5);
			ctx.lineTo(g.x(s.n), g.y(k) + 0.5);
		}
		ctx.stroke();
		drawHaunts(ctx, g, s, view.colors);
		for (let id = 0; id < s.type.length; id++)
			drawUnit(ctx, g, s, id, view.colors, view.params);
	}

	function probe(s, view) {
		const g = Viewer.grid(view.w, view.h, s.n, s.n);
		const units = s.type.map((t, id) => [id, t, s.who[id], s.row[id], s.col[id], s.health[id]]);
		const board = [];
		const land = [0, 0, 0, 0];
		for (let r = 0; r < s.n; r++) {
			let line = '';
			for (let c = 0; c < s.n; c++) {
				const i = r * s.n + c;
				line += s.wall[i] ? 'X' : s.owner[i] < 0 ? '.' : String(s.owner[i]);
				if (s.owner[i] >= 0)
					land[s.owner[i]]++;
			}
			board.push(line);
		}
		/* Units alone on a cell inside the board: their centre is their colour. */
		const at = (u) => u[3] * s.n + u[4], seen = new Map();
		for (const u of units)
			seen.set(at(u), (seen.get(at(u)) || 0) + 1);
		const inside = (u) => u[3] >= 0 && u[4] >= 0 && u[3] < s.n && u[4] < s.n && seen.get(at(u)) === 1;
		const pixels = units.filter(inside).slice(0, 6).map(([id, , owner, row, col]) =>
			({ what: 'unit ' + id, x: g.cx(col), y: g.cy(row), expect: view.colors[owner] }));
		return { units, board, counts: land, pixels };
	}

	function stats(s) {
		const cells = [0, 0, 0, 0], units = [0, 0, 0, 0];
		for (const o of s.owner)
			if (o >= 0)
				cells[o]++;
		for (const o of s.who)
			units[o]++;
		return cells.map((c, q) => c + ' cells, ' + units[q] + ' units');
	}

	/* A seat's debug mark is in its view, turned `seat` quarter turns
	 * (engine/view.c: dom_view_to_real). */
	function markAt(s, view, seat, r, c) {
		for (let k = 0; k < (seat & 3); k++)
			[r, c] = [s.n - 1 - c, r];
		return Viewer.cellAt(Viewer.grid(view.w, view.h, s.n, s.n), r, c);
	}

	Viewer.register('dominator', {
		title: 'Dominator', init, clone, apply, aspect, draw, probe, stats, markAt,
		legend: [['#3a4150', 'wall'], ['#f4f1ea', 'free'],
			 ['', '\u25cf farmer  \u25c6 knight  \u25b2 witch (shaded: the cells it haunts)']],
	});
})();
