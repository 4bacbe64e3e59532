/* viewer.js - Ants' board for the viewer: water, soil, each colony's food
 * rectangles, food, queens, soldiers and workers
 * (games/ants/engine/replay.c has the format). */
'use strict';

(() => {
	const QUEEN = 0, SOLDIER = 1;
	const FOOD = ['#c98b3a', '#6b8e23', '#2e8b57']; /* bread, seed, leaf */
	const FIELDS = ['alive', 'type', 'player', 'row', 'col', 'life', 'carried'];

	function lifeOf(p, type) {
		return type === QUEEN ? p.queen_life : type === SOLDIER ? p.soldier_life : p.worker_life;
	}

	function init(start) {
		const p = start.params || {};
		const rows = start.board.length, cols = rows ? start.board[0].length : 0;
		const s = { rows, cols, p, water: new Uint8Array(rows * cols),
			    food: new Int8Array(rows * cols).fill(-1), rects: start.rects || [] };
		for (const f of FIELDS)
			s[f] = [];
		start.board.forEach((line, r) => {
			for (let c = 0; c < cols; c++)
				s.water[r * cols + c] = line[c] === 'X' ? 1 : 0;
		});
		for (const [id, type, player, row, col, life] of start.ants || [])
			put(s, id, type, player, row, col, life);
		return s;
	}

	function put(s, id, type, player, row, col, life) {
		s.alive[id] = 1;
		s.type[id] = type;
		s.player[id] = player;
		s.row[id] = row;
		s.col[id] = col;
		s.life[id] = life;
		s.carried[id] = -1;
	}

	function clone(s) {
		const c = { rows: s.rows, cols: s.cols, p: s.p, water: s.water, food: s.food.slice(),
			    rects: s.rects };
		for (const f of FIELDS)
			c[f] = s[f].slice();
		return c;
	}

	/* Lives are not in the replay: each ant loses one a round, then the
	 * dead go, the newborn come at full life, a crowned ant at queen_life. */
	function apply(s, f) {
		for (let id = 0; id < s.alive.length; id++)
			if (s.alive[id])
				s.life[id]--;
		for (const id of f.dead || [])
			s.alive[id] = 0;
		for (const [id, row, col] of f.moved || []) {
			s.row[id] = row;
			s.col[id] = col;
		}
		for (const [id, type, player, row, col] of f.born || [])
			put(s, id, type, player, row, col, lifeOf(s.p, type));
		for (const id of f.crowned || []) {
			s.type[id] = QUEEN;
			s.life[id] = s.p.queen_life;
		}
		for (const [id, bonus] of f.carry || [])
			s.carried[id] = bonus;
		for (const [row, col, bonus] of f.food || [])
			s.food[row * s.cols + col] = bonus;
	}

	function aspect(s) {
		return s.rows ? s.cols / s.rows : 1;
	}

	function drawAnt(ctx, g, s, id, colors) {
		const x = g.cx(s.col[id]), y = g.cy(s.row[id]), cs = g.cs;
		ctx.fillStyle = colors[s.player[id]];
		ctx.strokeStyle = '#1d2330';
		ctx.lineWidth = Math.max(1, cs / 16);
		ctx.beginPath();
		if (s.type[id] === QUEEN) {
			ctx.arc(x, y, cs * 0.44, 0, 2 * Math.PI);
		} else if (s.type[id] === SOLDIER) {
			ctx.rect(x - cs * 0.3, y - cs * 0.3, cs * 0.6, cs * 0.6);
		} else {
			ctx.ellipse(x, y, cs * 0.22, cs * 0.3, 0, 0, 2 * Math.PI);
		}
		ctx.fill();
		ctx.stroke();
		if (s.type[id] === QUEEN) {
			ctx.fillStyle = '#ffd84a';
			ctx.beginPath();
			const w = cs * 0.2;
			ctx.moveTo(x - w, y + w * 0.4);
			ctx.lineTo(x - w, y - w * 0.6);
			ctx.lineTo(x - w / 2, y - w * 0.1);
			ctx.lineTo(x, y - w * 0.8);
			ctx.lineTo(x + w / 2, y - w * 0.1);
			ctx.lineTo(x + w, y - w * 0.6);
			ctx.lineTo(x + w, y + w * 0.4);
			ctx.closePath();
			ctx.fill();
		}
		if (s.carried[id] >= 0) {
			ctx.fillStyle = FOOD[s.carried[id]] || '#888';
			ctx.beginPath();
			ctx.arc(x + cs * 0.22, y - cs * 0.22, cs * 0.14, 0, 2 * Math.PI);
			ctx.fill();
			ctx.stroke();
		}
	}

	function draw(ctx, s, view) {
		const g = Viewer.grid(view.w, view.h, s.rows, s.cols);
		for (let r = 0; r < s.rows; r++)
			for (let c = 0; c < s.cols; c++) {
				ctx.fillStyle = s.water[r * s.cols + c] ? '#5b9bd5' : (r + c) % 2 ? '#e8dcc0' : '#ebe0c6';
				ctx.fillRect(g.x(c), g.y(r), g.cs, g.cs);
			}
		const bw = (s.p.bonus_cols || 3), bh = (s.p.bonus_rows || 3);
		ctx.lineWidth = Math.max(1.5, g.cs / 12);
		ctx.setLineDash([g.cs / 4, g.cs / 6]);
		for (const [player, bonus, row, col] of s.rects) {
			ctx.strokeStyle = view.colors[player];
			ctx.fillStyle = Viewer.tint(FOOD[bonus] || '#888', 0.8);
			ctx.fillRect(g.x(col), g.y(row), g.cs * bw, g.cs * bh);
			ctx.strokeRect(g.x(col) + 1, g.y(row) + 1, g.cs * bw - 2, g.cs * bh - 2);
		}
		ctx.setLineDash([]);
		for (let i = 0; i < s.food.length; i++) {
			if (s.food[i] < 0)
				continue;
			const r = Math.floor(i / s.cols), c = i % s.cols;
			ctx.fillStyle = FOOD[s.food[i]] || '#888';
			ctx.beginPath();
			ctx.arc(g.cx(c), g.cy(r), g.cs * 0.2, 0, 2 * Math.PI);
			ctx.fill();
		}
		for (let id = 0; id < s.alive.length; id++)
			if (s.alive[id])
				drawAnt(ctx, g, s, id, view.colors);
	}

	function probe(s, view) {
		const g = Viewer.grid(view.w, view.h, s.rows, s.cols);
		const units = [], counts = [0, 0, 0, 0];
		for (let id = 0; id < s.alive.length; id++)
			if (s.alive[id]) {
				units.push([id, s.type[id], s.player[id], s.row[id], s.col[id], s.life[id], s.carried[id]]);
				counts[s.player[id]]++;
			}
		const board = [];
		for (let r = 0; r < s.rows; r++) {
			let line = '';
			for (let c = 0; c < s.cols; c++) {
				const i = r * s.cols + c;
				line += s.water[i] ? 'X' : s.food[i] < 0 ? '.' : String(s.food[i]);
			}
			board.push(line);
		}
		/* A worker's centre is its colour unless it carries food there. */
		const at = (u) => u[3] * s.cols + u[4], seen = new Map();
		for (const u of units)
			seen.set(at(u), (seen.get(at(u)) || 0) + 1);
		const pixels = units.filter((u) => u[1] !== QUEEN && u[3] >= 0 && u[4] >= 0 && u[3] < s.rows &&
					    u[4] < s.cols && seen.get(at(u)) === 1).slice(0, 6).map(([id, , player, row, col]) =>
			({ what: 'ant ' + id, x: g.cx(col), y: g.cy(row) + g.cs * 0.12, expect: view.colors[player] }));
		return { units, board, counts, pixels };
	}

	function stats(s) {
		const ants = [0, 0, 0, 0], queens = [0, 0, 0, 0];
		for (let id = 0; id < s.alive.length; id++)
			if (s.alive[id]) {
				ants[s.player[id]]++;
				queens[s.player[id]] += s.type[id] === QUEEN;
			}
		return ants.map((n, q) => n + ' ants' + (queens[q] ? '' : ', no queen'));
	}

	Viewer.register('ants', {
		title: 'Ants', init, clone, apply, aspect, draw, probe, stats,
		markAt: (s, view, seat, r, c) => Viewer.cellAt(Viewer.grid(view.w, view.h, s.rows, s.cols), r, c),
		legend: [['#5b9bd5', 'water'], [FOOD[0], 'bread'], [FOOD[1], 'seed'], [FOOD[2], 'leaf'],
			 ['', '\u25cf queen  \u25a0 soldier  \u2022 worker; dashed: each colony\'s food rectangles']],
	});
})();
