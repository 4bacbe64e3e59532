/* viewer.js - Blitz2018 for the viewer: the wrapping map, each site's
 * owner, strength and production, and what one player sees through its fog
 * (games/blitz/engine/replay.c has the format).
 *
 * The replay records only which pieces moved: the rules have no
 * randomness, so each turn is resolved here again as games/blitz/engine/
 * rules.c does, and checked against the territory the round recorded.
 */
'use strict';

(() => {
	const MAX = 255;
	const STILL = 0, DIRS = 'nesw'; /* direction d + 1 is DIRS[d] */
	const FOG = '#3b4150', MAP = '#7d8494';
	let disagreed = false; /* the page has said so already */

	function hexGrid(text, n) {
		const v = new Uint8Array(n);
		for (let i = 0; i < n; i++)
			v[i] = parseInt(text.substr(2 * i, 2), 16) || 0;
		return v;
	}

	/* The seats ejected before each round: a player frozen in round r (its
	 * turn r + 1, counting from 1; -1 before the first) has its pieces
	 * become the map's before turn r + 1 is resolved. */
	function ejections(replay) {
		const out = {};
		const f = replay && replay.result && Array.isArray(replay.result.frozen) ? replay.result.frozen : [];
		for (const e of f) {
			if (!Array.isArray(e))
				continue;
			const turn = Math.max(1, (e[1] | 0) + 1);
			(out[turn] = out[turn] || []).push(e[0] | 0);
		}
		return out;
	}

	function init(start, replay) {
		const p = start.params || {};
		const w = p.width | 0, h = p.height | 0, n = w * h;
		const owner = new Uint8Array(n);
		for (let i = 0; i < n; i++)
			owner[i] = (start.owner.charCodeAt(i) - 48) & 7;
		const s = { w, h, n, players: p.players | 0, fog: p.fog | 0, round: 0,
			    production: hexGrid(start.production, n), strength: hexGrid(start.strength, n), owner,
			    eject: ejections(replay), maxProduction: Math.max(1, ...hexGrid(start.production, n)) };
		s.near = new Int32Array(5 * n); /* near[5 * i + d]: step(s, i, d) */
		for (let i = 0; i < n; i++)
			for (let d = 0; d <= 4; d++)
				s.near[5 * i + d] = step(s, i, d);
		s.ground = Array.from(s.production, (v, i) => ground(s, i));
		return s;
	}

	/* Working arrays of a turn, kept from one turn to the next: the
	 * keyframes resolve every turn of the match at load. */
	const scratch = { size: -1 };
	function work(s) {
		if (scratch.size !== s.players * s.n) {
			scratch.size = s.players * s.n;
			scratch.piece = new Int16Array(s.players * s.n);
			for (const k of ['sum', 'count', 'mapHurt', 'hurt', 'dir'])
				scratch[k] = new Int32Array(s.n);
		}
		return scratch;
	}

	function clone(s) {
		return { ...s, strength: s.strength.slice(), owner: s.owner.slice() };
	}

	/* The site one step from site i in direction d (STILL: i), wrapping. */
	function step(s, i, d) {
		let x = i % s.w, y = (i - x) / s.w;
		if (d === 1)
			y = y === 0 ? s.h - 1 : y - 1;
		else if (d === 2)
			x = x === s.w - 1 ? 0 : x + 1;
		else if (d === 3)
			y = y === s.h - 1 ? 0 : y + 1;
		else if (d === 4)
			x = x === 0 ? s.w - 1 : x - 1;
		return y * s.w + x;
	}

	/* "moves" as one direction per site (STILL when not named). */
	function parseMoves(s, text) {
		const dir = work(s).dir.fill(0);
		let site = 0;
		for (let i = 0; i < text.length;) {
			let k = 0;
			while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57)
				k = k * 10 + text.charCodeAt(i++) - 48;
			site += k;
			const d = DIRS.indexOf(text[i++]) + 1;
			if (site >= s.n || d === 0)
				throw new Error('round ' + (s.round + 1) + ': the moves "' + text.slice(0, 40) +
						'" are not in the replay\'s form (site ' + site + ')');
			dir[site++] = d;
		}
		return dir;
	}

	/* Steps (1) and (2): every piece leaves its site for piece[p * n + site]. */
	function movePieces(s, dir) {
		const piece = work(s).piece.fill(-1);
		const add = (p, i, v) => {
			const at = p * s.n + i;
			piece[at] = Math.min(MAX, Math.max(0, piece[at]) + v);
		};
		for (let i = 0; i < s.n; i++) {
			if (!s.owner[i])
				continue;
			const p = s.owner[i] - 1;
			if (dir[i] === STILL) {
				add(p, i, s.strength[i] + s.production[i]);
			} else {
				add(p, s.near[5 * i + dir[i]], s.strength[i]);
				add(p, i, 0);
			}
			s.owner[i] = 0;
			s.strength[i] = 0;
		}
		return piece;
	}

	/* Step (3): all damage from the strengths before any is dealt (overkill
	 * on the site and its four neighbours; the map's strength fights on its
	 * own site only), then step (4): who is left takes the site. */
	function fight(s, piece) {
		const { sum, count, mapHurt, hurt } = work(s), n = s.n, near = s.near;
		sum.fill(0);
		count.fill(0);
		mapHurt.fill(0);
		for (let p = 0; p < s.players; p++)
			for (let i = 0; i < s.n; i++)
				if (piece[p * s.n + i] >= 0) {
					sum[i] += piece[p * s.n + i];
					count[i]++;
				}
		for (let p = 0; p < s.players; p++) {
			const base = p * n;
			for (let i = 0; i < n; i++) {
				hurt[i] = -1;
				const v = piece[base + i];
				if (v < 0)
					continue;
				let damage = 0, enemies = 0;
				for (let d = 0; d <= 4; d++) {
					const j = near[5 * i + d], own = piece[base + j];
					damage += sum[j] - (own > 0 ? own : 0);
					enemies += count[j] - (own >= 0 ? 1 : 0);
				}
				if (s.strength[i] > 0) {
					damage += s.strength[i];
					enemies++;
					mapHurt[i] += v;
				}
				if (enemies)
					hurt[i] = damage;
			}
			for (let i = 0; i < n; i++)
				if (hurt[i] >= 0)
					piece[base + i] = hurt[i] >= piece[base + i] ? -1 : piece[base + i] - hurt[i];
		}
		for (let i = 0; i < s.n; i++)
			s.strength[i] = Math.max(0, s.strength[i] - mapHurt[i]);
		for (let p = 0; p < s.players; p++)
			for (let i = 0; i < s.n; i++)
				if (piece[p * s.n + i] >= 0) {
					s.owner[i] = p + 1;
					s.strength[i] = piece[p * s.n + i];
				}
	}

	function land(s) {
		const out = new Array(s.players).fill(0);
		for (let i = 0; i < s.n; i++)
			if (s.owner[i])
				out[s.owner[i] - 1]++;
		return out;
	}

	/* The page says so when a turn resolved here does not give the
	 * territory the engine recorded: once, for the first such round, since
	 * every later one follows from it. */
	function checkLand(s, f) {
		const got = land(s), want = Array.isArray(f.land) ? f.land : got;
		if (got.join() !== want.join() && !disagreed) {
			disagreed = true;
			console.error('Blitz round ' + s.round + ': replaying the moves gives territories ' +
				      got.join(', ') + ' but the replay recorded ' + want.join(', ') +
				      '; this viewer does not resolve turns as the judge that played the match' +
				      ' did, so the map shown from this round on is not the real one');
		}
	}

	function apply(s, f) {
		s.round++;
		for (const seat of s.eject[s.round] || [])
			for (let i = 0; i < s.n; i++)
				if (s.owner[i] === seat + 1)
					s.owner[i] = 0;
		fight(s, movePieces(s, parseMoves(s, typeof f.moves === 'string' ? f.moves : '')));
		checkLand(s, f);
	}

	function aspect(s) {
		return s.h ? s.w / s.h : 1;
	}

	/* What player k sees: its sites and every site within the fog radius
	 * (wrapped Euclidean distance); null when it sees the whole map. */
	function visible(s, k) {
		const hw = s.w >> 1, hh = s.h >> 1, r = s.fog;
		if (k < 0 || r === 0 || r * r >= hw * hw + hh * hh)
			return null;
		const seen = new Uint8Array(s.n);
		const ry = Math.min(r, hh), rx = Math.min(r, hw);
		for (let i = 0; i < s.n; i++) {
			if (s.owner[i] !== k + 1)
				continue;
			const x0 = i % s.w, y0 = (i - x0) / s.w;
			for (let dy = -ry; dy <= ry; dy++) {
				const y = ((y0 + dy) % s.h + s.h) % s.h;
				for (let dx = -rx; dx <= rx; dx++)
					if (dx * dx + dy * dy <= r * r)
						seen[y * s.w + ((x0 + dx) % s.w + s.w) % s.w] = 1;
			}
		}
		return seen;
	}

	/* Production as the ground's shade: pale (none) to stone (the map's most). */
	function ground(s, i) {
		const t = s.production[i] / s.maxProduction;
		const mix = (a, b) => Math.round(a + (b - a) * t);
		return 'rgb(' + mix(248, 206) + ',' + mix(246, 196) + ',' + mix(240, 170) + ')';
	}

	/* A square for strength v: its side grows with the strength's root, so
	 * its area follows the strength. */
	function side(cs, v) {
		return cs * (0.22 + 0.74 * Math.sqrt(v / MAX));
	}

	function drawSite(ctx, g, s, i, colors, land) {
		const c = i % s.w, r = (i - c) / s.w, x = g.x(c), y = g.y(r), cs = g.cs;
		const o = s.owner[i], v = s.strength[i];
		ctx.fillStyle = o ? land[o - 1] : s.ground[i];
		ctx.fillRect(x, y, cs, cs);
		if (!o && v === 0)
			return;
		const d = side(cs, v);
		ctx.fillStyle = o ? colors[o - 1] : MAP;
		ctx.globalAlpha = o ? 1 : 0.12 + 0.4 * v / MAX;
		ctx.fillRect(x + (cs - d) / 2, y + (cs - d) / 2, d, d);
		ctx.globalAlpha = 1;
	}

	function draw(ctx, s, view) {
		const g = Viewer.grid(view.w, view.h, s.h, s.w);
		const seen = visible(s, view.fog), land = view.colors.map((c) => Viewer.tint(c, 0.72));
		for (let i = 0; i < s.n; i++) {
			if (seen && !seen[i]) {
				const c = i % s.w, r = (i - c) / s.w;
				ctx.fillStyle = FOG;
				ctx.fillRect(g.x(c), g.y(r), g.cs, g.cs);
			} else {
				drawSite(ctx, g, s, i, view.colors, land);
			}
		}
		if (g.cs >= 8) { /* a faint grid to tell the sites apart */
			ctx.strokeStyle = 'rgba(29,35,48,0.08)';
			ctx.lineWidth = 1;
			ctx.beginPath();
			for (let c = 0; c <= s.w; c++) {
				ctx.moveTo(Math.round(g.x(c)) + 0.5, g.y(0));
				ctx.lineTo(Math.round(g.x(c)) + 0.5, g.y(s.h));
			}
			for (let r = 0; r <= s.h; r++) {
				ctx.moveTo(g.x(0), Math.round(g.y(r)) + 0.5);
				ctx.lineTo(g.x(s.w), Math.round(g.y(r)) + 0.5);
			}
			ctx.stroke();
		}
	}

	/* board: one line per row, the owner's digit ('0' the map's, '?' in
	 * the fog of the view shown); units: [site, owner, strength] of each
	 * player's piece in sight; counts: the sites each player holds in sight. */
	function probe(s, view) {
		const g = Viewer.grid(view.w, view.h, s.h, s.w);
		const seen = visible(s, view.fog);
		const board = [], units = [], counts = new Array(s.players).fill(0), pixels = [];
		for (let r = 0; r < s.h; r++) {
			let line = '';
			for (let c = 0; c < s.w; c++) {
				const i = r * s.w + c, o = s.owner[i];
				if (seen && !seen[i]) {
					line += '?';
					if (pixels.length < 8 && (r * 7 + c) % 5 === 0)
						pixels.push({ what: 'fogged site ' + i, x: g.cx(c), y: g.cy(r), expect: FOG });
					continue;
				}
				line += String(o);
				if (!o)
					continue;
				units.push([i, o, s.strength[i]]);
				counts[o - 1]++;
				if (pixels.length < 12 && units.length % 7 === 1)
					pixels.push({ what: 'site ' + i, x: g.cx(c), y: g.cy(r), expect: view.colors[o - 1] });
			}
			board.push(line);
		}
		return { units, board, counts, pixels };
	}

	function stats(s) {
		const sites = land(s), strength = new Array(s.players).fill(0);
		for (let i = 0; i < s.n; i++)
			if (s.owner[i])
				strength[s.owner[i] - 1] += s.strength[i];
		return sites.map((n, p) => n || !s.round ? n + (n === 1 ? ' site, ' : ' sites, ') + 'strength ' + strength[p]
					      : 'out: no site left');
	}

	/* A player without a site is out of the game. */
	function out(s, p) {
		return s.round > 0 && !s.owner.includes(p + 1);
	}

	Viewer.register('blitz', {
		title: 'Blitz2018', init, clone, apply, aspect, draw, probe, stats, out, fog: true,
		markAt: (s, view, seat, r, c) => Viewer.cellAt(Viewer.grid(view.w, view.h, s.h, s.w), r, c),
		score: (frame) => frame.land,
		legend: [['rgb(206,196,170)', 'production (darker: more)'], [MAP, 'the map\'s strength'],
			 [FOG, 'fog: out of sight'],
			 ['', 'a square\'s size is its strength; the score is territory (sites held)']],
	});
})();
