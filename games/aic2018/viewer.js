/* viewer.js - AIC2018 for the viewer: land and water, oaks and small
 * trees, victory points, every unit (its type's letter, its team's colour,
 * its HP), a team's vision on request, and the teams' wood over the rounds
 * in a plot below the map (the page's own plot shows the VP).  The replay's form
 * is in games/aic2018/replay.h: the header and each round are lists of
 * changes, applied here in order.
 */
'use strict';

(() => {
	const LETTERS = 'WBSAKL'; /* worker, barracks, soldier, archer, knight, ballista */
	const NAMES = ['worker', 'barracks', 'soldier', 'archer', 'knight', 'ballista'];
	const VISION = [16, 48, 24, 20, 48, 10], BINOCULARS = 30;
	const MAX_HP = [[40, 40], [300, 300], [60, 100], [20, 30], [120, 170], [20, 30]];
	const LAND = '#e9e4cf', WATER = '#7fb2d9', OAK = '#2f6b2f', SMALL = '#8cc26b';
	const VP = '#e8b007', FOG = '#3b4150';
	const OAK_TREE = 1, SMALL_TREE = 2;

	function int(v) {
		return v | 0;
	}

	/* One list of changes (the header's or a round's), applied in place. */
	function change(s, f) {
		for (const row of Array.isArray(f.u) ? f.u : []) {
			if (!Array.isArray(row))
				continue;
			const id = int(row[0]), old = s.units.get(id);
			const u = old ? { ...old } : { id, team: int(row[7]) & 1, type: Math.min(5, Math.max(0, int(row[8]))) };
			u.x = int(row[1]);
			u.y = int(row[2]);
			u.hp = int(row[3]);
			u.level = int(row[4]);
			u.construction = int(row[5]);
			u.flags = int(row[6]);
			s.units.set(id, u);
		}
		for (const id of Array.isArray(f.d) ? f.d : [])
			s.units.delete(int(id));
		for (const t of Array.isArray(f.t) ? f.t : []) {
			const i = int(t[1]) * s.w + int(t[0]);
			if (int(t[2]))
				s.trees.set(i, [int(t[2]), int(t[3])]);
			else
				s.trees.delete(i);
		}
		for (const v of Array.isArray(f.v) ? f.v : []) {
			const i = int(v[1]) * s.w + int(v[0]);
			if (int(v[2]))
				s.vps.set(i, int(v[2]));
			else
				s.vps.delete(i);
		}
		if (Array.isArray(f.w))
			s.wood = [int(f.w[0]), int(f.w[1])];
		if (Array.isArray(f.p))
			s.points = [int(f.p[0]), int(f.p[1])];
		s.woodAt[s.round] = s.wood;
	}

	function init(start) {
		const w = int(start.width), h = int(start.height);
		const terrain = typeof start.terrain === 'string' ? start.terrain : '';
		const water = new Uint8Array(w * h);
		for (let i = 0; i < w * h; i++)
			water[i] = terrain[i] === '~' ? 1 : 0;
		/* woodAt is shared by every copy: round r's wood is the same in all */
		const s = { w, h, water, round: 0, units: new Map(), trees: new Map(), vps: new Map(),
			    wood: [0, 0], points: [0, 0], woodAt: [], rounds: int(start.rounds) };
		change(s, start);
		return s;
	}

	function clone(s) {
		return { ...s, units: new Map(s.units), trees: new Map(s.trees), vps: new Map(s.vps) };
	}

	function apply(s, f) {
		s.round++;
		change(s, f || {});
	}

	/* The board is the map and, below it, a strip for the wood plot (a
	 * fifth of the map's height), so that the plot hides no cell. */
	const STRIP = 0.2;

	function aspect(s) {
		return s.h ? s.w / (s.h * (1 + STRIP)) : 1;
	}

	/* The map's part of the board (the wood strip below it). */
	function mapGrid(s, view) {
		return Viewer.grid(view.w, view.h / (1 + STRIP), s.h, s.w);
	}

	function vision(u) {
		return u.type === 3 && u.level >= 1 ? BINOCULARS : VISION[u.type];
	}

	/* The cells team k sees; null for the full board. */
	function visible(s, k) {
		if (k < 0)
			return null;
		const seen = new Uint8Array(s.w * s.h);
		for (const u of s.units.values()) {
			if (u.team !== k)
				continue;
			const r = vision(u), d = Math.floor(Math.sqrt(r));
			for (let y = Math.max(0, u.y - d); y <= Math.min(s.h - 1, u.y + d); y++)
				for (let x = Math.max(0, u.x - d); x <= Math.min(s.w - 1, u.x + d); x++)
					if ((x - u.x) * (x - u.x) + (y - u.y) * (y - u.y) <= r)
						seen[y * s.w + x] = 1;
		}
		return seen;
	}

	function drawTree(ctx, g, tree, x, y) {
		const cs = g.cs;
		ctx.fillStyle = tree[0] === OAK_TREE ? OAK : SMALL;
		ctx.beginPath();
		const r = tree[0] === OAK_TREE ? cs * 0.45 : cs * (0.15 + 0.25 * Math.min(1, tree[1] / 40));
		ctx.arc(x + cs / 2, y + cs / 2, r, 0, 2 * Math.PI);
		ctx.fill();
	}

	function drawVp(ctx, g, x, y) {
		const cs = g.cs, c = cs / 2;
		ctx.fillStyle = VP;
		ctx.beginPath();
		ctx.moveTo(x + c, y + cs * 0.15);
		ctx.lineTo(x + cs * 0.85, y + c);
		ctx.lineTo(x + c, y + cs * 0.85);
		ctx.lineTo(x + cs * 0.15, y + c);
		ctx.fill();
	}

	/* A unit: its team's square (paler under construction), its letter,
	 * an HP bar; a poisoned unit has a green edge. */
	function drawUnit(ctx, g, u, colors) {
		const cs = g.cs, x = g.x(u.x), y = g.y(u.y), m = Math.max(1, cs * 0.08);
		ctx.fillStyle = u.construction ? Viewer.tint(colors[u.team], 0.55) : colors[u.team];
		ctx.fillRect(x + m, y + m, cs - 2 * m, cs - 2 * m);
		if (u.flags & 1) {
			ctx.strokeStyle = '#3fbf3f';
			ctx.lineWidth = Math.max(1, cs * 0.08);
			ctx.strokeRect(x + m, y + m, cs - 2 * m, cs - 2 * m);
		}
		if (cs >= 9) {
			ctx.fillStyle = '#ffffff';
			ctx.font = 'bold ' + Math.floor(cs * 0.6) + 'px sans-serif';
			ctx.textAlign = 'center';
			ctx.textBaseline = 'middle';
			ctx.fillText(LETTERS[u.type], x + cs / 2, y + cs / 2);
		}
		const max = MAX_HP[u.type][u.level >= 3 ? 1 : 0];
		ctx.fillStyle = '#1d2330';
		ctx.fillRect(x + m, y + cs - 2 * m, (cs - 2 * m) * Math.max(0, Math.min(1, u.hp / max)), m);
	}

	/* Where the wood plot goes: the strip below the map, as wide as it. */
	function woodBox(s, view) {
		const g = mapGrid(s, view), top = g.y(s.h - 1) + g.cs;
		return { x0: g.x(0), y0: top + 4, w: g.cs * s.w, h: view.h - top - 8 };
	}

	/* Both teams' wood from round 0 to the one shown, below the map. */
	function drawWood(ctx, s, view) {
		const { x0, y0, w, h } = woodBox(s, view);
		let max = 1;
		for (let r = 0; r <= s.round; r++)
			if (s.woodAt[r])
				max = Math.max(max, s.woodAt[r][0], s.woodAt[r][1]);
		ctx.fillStyle = 'rgba(255,255,255,0.85)';
		ctx.fillRect(x0, y0, w, h);
		const span = Math.max(1, s.round); /* the rounds so far fill the width */
		for (let k = 0; k < 2; k++) {
			ctx.strokeStyle = view.colors[k];
			ctx.lineWidth = 1.5;
			ctx.beginPath();
			for (let r = 0; r <= s.round; r++) {
				const v = s.woodAt[r] ? s.woodAt[r][k] : 0;
				const px = x0 + w * r / span, py = y0 + h - 4 - (h - 16) * v / max;
				if (r === 0)
					ctx.moveTo(px, py);
				else
					ctx.lineTo(px, py);
			}
			ctx.stroke();
		}
		ctx.fillStyle = '#1d2330';
		ctx.font = '10px sans-serif';
		ctx.textAlign = 'left';
		ctx.textBaseline = 'top';
		ctx.fillText('wood (max ' + max + ')', x0 + 4, y0 + 2);
	}

	function draw(ctx, s, view) {
		const g = mapGrid(s, view);
		const seen = visible(s, view.fog);
		for (let i = 0; i < s.w * s.h; i++) {
			const c = i % s.w, r = (i - c) / s.w, x = g.x(c), y = g.y(r);
			ctx.fillStyle = s.water[i] ? WATER : LAND;
			ctx.fillRect(x, y, g.cs, g.cs);
			const tree = s.trees.get(i);
			if (tree && (tree[0] === OAK_TREE || !seen || seen[i]))
				drawTree(ctx, g, tree, x, y);
			if (s.vps.has(i) && (!seen || seen[i]))
				drawVp(ctx, g, x, y);
		}
		for (const u of s.units.values())
			if (!seen || seen[u.y * s.w + u.x] || u.team === view.fog)
				drawUnit(ctx, g, u, view.colors);
		if (seen) {
			ctx.fillStyle = FOG;
			ctx.globalAlpha = 0.6;
			for (let i = 0; i < s.w * s.h; i++)
				if (!seen[i]) {
					const c = i % s.w, r = (i - c) / s.w;
					ctx.fillRect(g.x(c), g.y(r), g.cs, g.cs);
				}
			ctx.globalAlpha = 1;
		}
		drawWood(ctx, s, view);
	}

	/* board: one line per row ('~' water, 'O' oak, 't' small tree, '$'
	 * VP, a unit's letter, upper case team A's, '?' out of the team's
	 * sight); units: [id, team, type, x, y, hp] of each unit shown;
	 * counts: units per team. */
	function probe(s, view) {
		const g = mapGrid(s, view), seen = visible(s, view.fog);
		const at = new Map();
		for (const u of s.units.values())
			at.set(u.y * s.w + u.x, u);
		const board = [], units = [], counts = [0, 0], pixels = [];
		for (let r = 0; r < s.h; r++) {
			let line = '';
			for (let c = 0; c < s.w; c++) {
				const i = r * s.w + c, u = at.get(i), tree = s.trees.get(i);
				if (seen && !seen[i] && !(u && u.team === view.fog)) {
					line += s.water[i] ? '~' : tree && tree[0] === OAK_TREE ? 'O' : '?';
					continue;
				}
				if (u) {
					line += u.team ? LETTERS[u.type].toLowerCase() : LETTERS[u.type];
					units.push([u.id, u.team, u.type, u.x, u.y, u.hp]);
					counts[u.team]++;
					/* a point of the square just past the poison edge
					 * (drawUnit's margin and stroke), clear of the letter
					 * and the HP bar */
					const edge = Math.max(1, g.cs * 0.08) * 1.5 + 0.5;
					const px = Math.floor(g.x(c) + edge) + 0.5, py = Math.floor(g.y(r) + edge) + 0.5;
					if (pixels.length < 8 && !u.construction && g.cs >= 6)
						pixels.push({ what: NAMES[u.type] + ' ' + u.id, x: px, y: py,
							      expect: view.colors[u.team] });
				} else {
					line += s.water[i] ? '~' : tree ? (tree[0] === OAK_TREE ? 'O' : 't') : s.vps.has(i) ? '$' : '.';
				}
			}
			board.push(line);
		}
		return { units, board, counts, pixels };
	}

	function stats(s) {
		const units = [0, 0];
		for (const u of s.units.values())
			units[u.team]++;
		return [0, 1].map((k) => s.points[k] + ' VP, ' + s.wood[k] + ' wood, ' + units[k] +
				    (units[k] === 1 ? ' unit' : ' units'));
	}

	function out(s, k) {
		if (s.round === 0)
			return false;
		for (const u of s.units.values())
			if (u.team === k)
				return false;
		return true;
	}

	Viewer.register('aic2018', {
		title: 'AIC2018', init, clone, apply, aspect, draw, probe, stats, out, fog: true,
		markAt: (s, view, seat, r, c) => Viewer.cellAt(mapGrid(s, view), r, c),
		score: (frame) => frame.p,
		legend: [[LAND, 'land'], [WATER, 'water'], [OAK, 'oak'], [SMALL, 'small tree'],
			 [VP, 'victory points'],
			 ['', 'W worker, B barracks, S soldier, A archer, K knight, L ballista; pale: under construction; bar: HP; the plot: VP, below the map: wood']],
	});
})();
