/* viewer.js - Star War for the viewer: the window that is in play, as the
 * players see it, above a strip of the whole cylindrical universe
 * (games/starwar/engine/replay.c has the format). */
'use strict';

(() => {
	const EMPTY = 0, ASTEROID = 1, POINTS = 2, MISSILES = 3, SHIP = 4, MISSILE = 5;
	const KINDS = '.XPMS*';
	const COLOR = { [ASTEROID]: '#8a8f98', [POINTS]: '#f2c14e', [MISSILES]: '#e4572e',
			[MISSILE]: '#ffffff' };
	const SPACE = '#141a2b';

	function init(start) {
		const p = start.params || {};
		const rows = start.map.length, cols = rows ? start.map[0].length : 0;
		const s = { rows, cols, window: p.window || cols, kind: new Uint8Array(rows * cols),
			    owner: [], alive: [], row: [], col: [], missiles: [], round: 0 };
		start.map.forEach((line, r) => {
			for (let c = 0; c < cols; c++)
				s.kind[r * cols + c] = Math.max(0, KINDS.indexOf(line[c]));
		});
		for (const [id, owner, row, col, missiles] of start.ships || []) {
			s.owner[id] = owner;
			s.alive[id] = 1;
			s.row[id] = row;
			s.col[id] = col;
			s.missiles[id] = missiles;
		}
		return s;
	}

	function clone(s) {
		return { rows: s.rows, cols: s.cols, window: s.window, kind: s.kind.slice(),
			 owner: s.owner, alive: s.alive.slice(), row: s.row.slice(), col: s.col.slice(),
			 missiles: s.missiles.slice(), round: s.round };
	}

	/* Cells, then ships; a live ship not listed made the default move. */
	function apply(s, f) {
		const cells = f.cells || [];
		for (let i = 0; i + 2 < cells.length; i += 3)
			s.kind[cells[i] * s.cols + cells[i + 1]] = cells[i + 2];
		const listed = new Set();
		const ships = f.ships || [];
		for (let i = 0; i + 4 < ships.length; i += 5) {
			const id = ships[i];
			listed.add(id);
			s.alive[id] = ships[i + 1];
			s.row[id] = ships[i + 2];
			s.col[id] = ships[i + 3];
			s.missiles[id] = ships[i + 4];
		}
		for (let id = 0; id < s.alive.length; id++)
			if (s.alive[id] && !listed.has(id))
				s.col[id] = (s.col[id] + 1) % s.cols;
		s.round++;
	}

	const GAP = 0.6; /* between the window and the universe, in window cells */

	/* The window above, the whole universe below at the same width. */
	function aspect(s) {
		return s.window / (s.rows * (1 + s.window / s.cols) + GAP);
	}

	function drawShip(ctx, x, y, cs, color) {
		ctx.fillStyle = color;
		ctx.strokeStyle = '#ffffff';
		ctx.lineWidth = Math.max(1, cs / 14);
		ctx.beginPath();
		ctx.moveTo(x + cs * 0.45, y);
		ctx.lineTo(x - cs * 0.4, y - cs * 0.38);
		ctx.lineTo(x - cs * 0.2, y);
		ctx.lineTo(x - cs * 0.4, y + cs * 0.38);
		ctx.closePath();
		ctx.fill();
		ctx.stroke();
	}

	function drawCell(ctx, kind, x, y, cs) {
		if (kind === EMPTY || kind === SHIP)
			return;
		ctx.fillStyle = COLOR[kind];
		ctx.beginPath();
		if (kind === ASTEROID) {
			ctx.arc(x, y, cs * 0.4, 0, 2 * Math.PI);
		} else if (kind === MISSILE) {
			ctx.rect(x - cs * 0.35, y - cs * 0.08, cs * 0.7, cs * 0.16);
		} else {
			ctx.rect(x - cs * 0.28, y - cs * 0.28, cs * 0.56, cs * 0.56);
		}
		ctx.fill();
		if (kind === POINTS || kind === MISSILES) {
			ctx.fillStyle = SPACE;
			ctx.font = 'bold ' + Math.round(cs * 0.42) + 'px system-ui, sans-serif';
			ctx.textAlign = 'center';
			ctx.textBaseline = 'middle';
			ctx.fillText(kind === POINTS ? 'P' : 'M', x, y + cs * 0.02);
		}
	}

	/* The window: its column k is universe column (round + k) mod cols. */
	function windowGrid(s, view) {
		return Viewer.grid(view.w, view.h * s.rows / (s.rows * (1 + s.window / s.cols) + GAP),
				   s.rows, s.window);
	}

	function draw(ctx, s, view) {
		const g = windowGrid(s, view);
		const first = s.round % s.cols;
		ctx.fillStyle = SPACE;
		ctx.fillRect(g.ox, g.oy, g.cs * s.window, g.cs * s.rows);
		ctx.fillStyle = 'rgba(255,255,255,0.35)';
		for (let k = 0; k < 90; k++) {
			const sx = (k * 7919) % (g.cs * s.window), sy = (k * 104729) % (g.cs * s.rows);
			ctx.fillRect(g.ox + sx, g.oy + sy, 1.5, 1.5);
		}
		for (let r = 0; r < s.rows; r++)
			for (let k = 0; k < s.window; k++)
				drawCell(ctx, s.kind[r * s.cols + (first + k) % s.cols], g.cx(k), g.cy(r), g.cs);
		for (let id = 0; id < s.alive.length; id++) {
			const k = (s.col[id] - first + s.cols) % s.cols;
			if (s.alive[id] && k < s.window)
				drawShip(ctx, g.cx(k), g.cy(s.row[id]), g.cs, view.colors[s.owner[id]]);
		}
		drawUniverse(ctx, s, view, g, first);
	}

	/* A debug mark in universe column c, where the window shows it. */
	function markAt(s, view, seat, r, c) {
		const k = ((c - s.round % s.cols) % s.cols + s.cols) % s.cols;
		return k < s.window ? Viewer.cellAt(windowGrid(s, view), r, k) : null;
	}

	/* The whole universe, small, the window outlined. */
	function drawUniverse(ctx, s, view, g, first) {
		const cs = g.cs * s.window / s.cols, ox = g.ox, oy = g.oy + g.cs * (s.rows + GAP);
		ctx.fillStyle = SPACE;
		ctx.fillRect(ox, oy, cs * s.cols, cs * s.rows);
		for (let r = 0; r < s.rows; r++)
			for (let c = 0; c < s.cols; c++) {
				const kind = s.kind[r * s.cols + c];
				if (kind === EMPTY || kind === SHIP)
					continue;
				ctx.fillStyle = COLOR[kind];
				ctx.fillRect(ox + c * cs, oy + r * cs, cs, cs);
			}
		for (let id = 0; id < s.alive.length; id++)
			if (s.alive[id]) {
				ctx.fillStyle = view.colors[s.owner[id]];
				ctx.fillRect(ox + s.col[id] * cs, oy + s.row[id] * cs, cs, cs);
			}
		ctx.strokeStyle = '#6f9bff';
		ctx.lineWidth = 2;
		const w = Math.min(s.window, s.cols - first);
		ctx.strokeRect(ox + first * cs + 1, oy + 1, w * cs - 2, cs * s.rows - 2);
		if (w < s.window)
			ctx.strokeRect(ox + 1, oy + 1, (s.window - w) * cs - 2, cs * s.rows - 2);
	}

	function probe(s, view) {
		const g = windowGrid(s, view);
		const first = s.round % s.cols;
		const units = [], counts = [0, 0, 0, 0];
		for (let id = 0; id < s.alive.length; id++) {
			units.push([id, s.owner[id], s.alive[id], s.row[id], s.col[id], s.missiles[id]]);
			if (s.alive[id])
				counts[s.owner[id]]++;
		}
		const board = [];
		for (let r = 0; r < s.rows; r++) {
			let line = '';
			for (let c = 0; c < s.cols; c++)
				line += KINDS[s.kind[r * s.cols + c]];
			board.push(line);
		}
		const pixels = units.filter((u) => u[2] && (u[4] - first + s.cols) % s.cols < s.window)
			.slice(0, 6).map(([id, owner, , row, col]) => ({
				what: 'ship ' + id, x: g.cx((col - first + s.cols) % s.cols) - g.cs * 0.05,
				y: g.cy(row), expect: view.colors[owner] }));
		return { units, board, counts, pixels };
	}

	function stats(s) {
		const ships = [0, 0, 0, 0], missiles = [0, 0, 0, 0];
		for (let id = 0; id < s.alive.length; id++) {
			ships[s.owner[id]] += s.alive[id] ? 1 : 0;
			missiles[s.owner[id]] += s.missiles[id];
		}
		return ships.map((n, q) => n + (n === 1 ? ' ship' : ' ships') + ' flying, ' + missiles[q] + ' missiles');
	}

	Viewer.register('starwar', {
		title: 'Star War', init, clone, apply, aspect, draw, probe, stats, markAt,
		legend: [[COLOR[ASTEROID], 'asteroid'], [COLOR[POINTS], 'point bonus'],
			 [COLOR[MISSILES], 'missile bonus'], ['#cccccc', 'missile'],
			 ['', 'below: the whole universe, the window outlined']],
	});
})();
