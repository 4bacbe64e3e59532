/* core.js - the replay viewer's shared part: loading the replay, keyframes,
 * the controls, the players' panel, the score plot and the timeline.
 *
 * Each game is one module in games/NAME.js that calls Viewer.register(NAME,
 * module); a new game is that file plus one script element in viewer.html.
 * A module provides:
 *   title                     the game's name for the page
 *   init(start, replay)       the state before round 1, from the header
 *   clone(state)              an independent copy (keyframes keep them)
 *   apply(state, frame)       one round's changes, in place
 *   aspect(state)             the board's width / height
 *   draw(ctx, state, view)    view: {w, h, colors, round, fog}
 *   probe(state, view)        for tests: {units, board, counts, pixels}
 *   stats(state)              per player, a few words for the panel
 *                             ("412 cells, 31 units"; optional)
 *   out(state, k)             true when player k is out of the game though
 *                             its program still runs (optional)
 *   legend                    [[colour, text], ...] (optional)
 *   score(frame)              each player's score after that round, when
 *                             the round has no "score" (optional)
 *   fog                       true when players see only part of the board:
 *                             the page then offers "full board / player k's
 *                             view" and passes view.fog = -1 or k to draw.
 *   markAt(state, view, seat, row, col)
 *                             where seat's debug mark at (row, col) of its
 *                             own view goes on the board: {x, y, cs} (the
 *                             cell's centre and size, Viewer.cellAt), or null
 *                             where the board does not show it.
 *
 * Debug marks (replay.debug, judge/play/debug.h) are drawn over the board
 * for the players whose box is ticked; the seats the service hid are
 * listed in debug.hidden.  Each seat's CPU per round (replay.cpu_us) is
 * plotted under the board.
 *
 * Every text from the replay (names, labels, reasons) reaches the page as
 * textContent or a property, never as markup.
 */
'use strict';

const Viewer = (() => {
	const games = {};
	const COLORS = ['#d7263d', '#1f6fb5', '#2a9d4b', '#e39b12', '#7d3fb2', '#12a0a0'];
	const KEYFRAME_EVERY = 50;
	const errors = [];
	const $ = (id) => document.getElementById(id);

	function reportError(text) {
		errors.push(String(text));
		const box = $('errors');
		if (box) {
			box.hidden = false;
			box.textContent = errors.join('\n');
		}
	}
	window.addEventListener('error', (e) => reportError(e.message || 'error'));
	window.addEventListener('unhandledrejection', (e) => reportError(e.reason));
	const consoleError = console.error.bind(console);
	console.error = (...args) => { reportError(args.join(' ')); consoleError(...args); };
	window.alert = (text) => reportError('alert(' + text + ')');

	/* ---- the replay -------------------------------------------------- */

	async function gunzipBase64(text) {
		const bin = atob(text.replace(/\s+/g, ''));
		const bytes = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++)
			bytes[i] = bin.charCodeAt(i);
		const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
		return new Response(stream).text();
	}

	/* A seed is 64 bits and JSON.parse keeps 53: the header's digits are
	 * kept as text, so the seed shown replays the same match. */
	const SEED_IN_HEADER = /^\s*\{\s*"format"\s*:\s*\d+\s*,\s*"game"\s*:\s*"\w*"\s*,\s*"seed"\s*:\s*(\d+)/;

	function parseReplay(text) {
		const replay = JSON.parse(text);
		const seed = SEED_IN_HEADER.exec(text);
		if (seed && replay && typeof replay === 'object')
			replay.seed = seed[1];
		return replay;
	}

	async function embeddedReplay() {
		const el = $('replay');
		const text = el ? el.textContent.trim() : '';
		if (!text)
			return null;
		return parseReplay(el.dataset.encoding === 'gzip-base64' ? await gunzipBase64(text) : text);
	}

	/* Keyframes: the state every KEYFRAME_EVERY rounds, made once at load,
	 * so reaching any round applies at most KEYFRAME_EVERY - 1 rounds. */
	class Match {
		constructor(replay, game) {
			this.replay = replay;
			this.game = game;
			this.rounds = Array.isArray(replay.rounds) ? replay.rounds : [];
			this.last = this.rounds.length;
			const state = game.init(replay.start, replay);
			this.keyframes = [game.clone(state)];
			for (let r = 1; r <= this.last; r++) {
				game.apply(state, this.rounds[r - 1]);
				if (r % KEYFRAME_EVERY === 0)
					this.keyframes.push(game.clone(state));
			}
			this.cur = null;
			this.at = -1;
			this.indexMarks(replay.debug);
		}

		/* marks[seat]: round -> that round's marks. */
		indexMarks(debug) {
			const per = debug && Array.isArray(debug.marks) ? debug.marks : [];
			this.marks = per.map((rounds) => new Map((Array.isArray(rounds) ? rounds : [])
				.filter((e) => Array.isArray(e) && Number.isInteger(e[0]))
				.map((e) => [e[0], e.slice(1)])));
			this.hidden = new Set(debug && Array.isArray(debug.hidden) ? debug.hidden : []);
			this.dropped = debug && Array.isArray(debug.dropped) ? debug.dropped : [];
		}

		/* The state after `round` rounds (0: the start). */
		state(round) {
			const base = round - round % KEYFRAME_EVERY;
			if (!this.cur || this.at > round || this.at < base) {
				this.cur = this.game.clone(this.keyframes[base / KEYFRAME_EVERY]);
				this.at = base;
			}
			for (; this.at < round; this.at++)
				this.game.apply(this.cur, this.rounds[this.at]);
			return this.cur;
		}

		/* The same state, replayed from the start without keyframes. */
		stateFromStart(round) {
			const s = this.game.init(this.replay.start, this.replay);
			for (let r = 0; r < round; r++)
				this.game.apply(s, this.rounds[r]);
			return s;
		}

		scores(round) {
			const n = this.replay.players.length;
			const f = round > 0 && this.rounds[round - 1];
			const s = f && (this.game.score && !('score' in f) ? this.game.score(f) : f.score);
			return Array.isArray(s) ? s : new Array(n).fill(0);
		}
	}

	/* ---- drawing helpers shared by the games ------------------------- */

	/* A rows x cols grid of square cells centred in w x h. */
	function grid(w, h, rows, cols) {
		const cs = Math.max(1, Math.floor(Math.min(w / cols, h / rows)));
		const ox = Math.floor((w - cs * cols) / 2), oy = Math.floor((h - cs * rows) / 2);
		return { cs, ox, oy, x: (c) => ox + c * cs, y: (r) => oy + r * cs,
			 cx: (c) => ox + c * cs + cs / 2, cy: (r) => oy + r * cs + cs / 2 };
	}

	/* A cell's centre and size on grid g, for a module's markAt(). */
	function cellAt(g, r, c) {
		return { x: g.cx(c), y: g.cy(r), cs: g.cs };
	}

	/* A colour between a and white: t = 0 gives a, 1 white. */
	function tint(hex, t) {
		const v = parseInt(hex.slice(1), 16);
		const mix = (c) => Math.round(c + (255 - c) * t);
		return 'rgb(' + mix(v >> 16) + ',' + mix((v >> 8) & 255) + ',' + mix(v & 255) + ')';
	}

	/* FNV-1a over numbers and strings: a state's fingerprint for tests. */
	function digest(parts) {
		let h = 0x811c9dc5;
		const text = JSON.stringify(parts);
		for (let i = 0; i < text.length; i++)
			h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
		return h.toString(16);
	}

	/* ---- the page ------------------------------------------------------ */

	const view = { match: null, round: 0, playing: false, speed: 10, fog: -1, marksOn: new Set(),
		       lastTick: 0, carry: 0, phases: { script: performance.now() } };

	function el(tag, cls, text) {
		const e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	function color(i) {
		return COLORS[i % COLORS.length];
	}

	function playerName(p, i) {
		return p && typeof p.name === 'string' && p.name ? p.name : 'player ' + i;
	}

	const VERDICTS = {
		'cpu-limit': 'used up its CPU time', 'memory-limit': 'ran out of memory',
		'wall-limit': 'took too long (wall clock)', 'forbidden-syscall': 'made a forbidden system call',
		'signaled': 'crashed', 'exited': 'exited', 'output-limit': 'wrote too much',
		'stopped': 'broke the protocol', 'setup-failed': 'could not be started',
	};

	/* [{seat, round, why}] from result.frozen [[seat, round, verdict, reason?]]. */
	function frozenList(replay) {
		const f = replay.result && Array.isArray(replay.result.frozen) ? replay.result.frozen : [];
		return f.filter(Array.isArray).map((e) => ({
			seat: e[0] | 0, round: e[1] | 0,
			why: typeof e[3] === 'string' && e[3] ? e[3] : VERDICTS[e[2]] || String(e[2]),
		}));
	}

	function frozenText(f) {
		return (f.round < 0 ? 'frozen before the first round: ' : 'frozen in round ' + f.round + ': ') + f.why;
	}

	function buildPlayers(m) {
		const list = $('players');
		list.replaceChildren();
		const frozen = frozenList(m.replay);
		m.replay.players.forEach((p, i) => {
			const li = el('li');
			const sw = el('span', 'swatch');
			sw.style.background = color(i);
			li.append(sw, el('span', 'name', playerName(p, i)), el('span', 'score', '0'),
				  el('span', 'stat'));
			if (p && typeof p.label === 'string' && p.label !== p.name)
				li.append(el('span', 'label', p.label));
			for (const f of frozen.filter((f) => f.seat === i))
				li.append(el('span', 'frozen', frozenText(f)));
			const toggle = marksToggle(m, i);
			if (toggle)
				li.append(toggle);
			list.append(li);
		});
	}

	/* The seat's debug marks: a box to draw them, or why there are none. */
	function marksToggle(m, i) {
		if (m.hidden.has(i))
			return el('span', 'debug-note', 'debug marks: only its author and the organisers see them');
		const n = m.marks[i] ? m.marks[i].size : 0, dropped = Number(m.dropped[i]) || 0;
		if (!n && !dropped)
			return null;
		const label = el('label', 'debug-toggle');
		const box = el('input');
		box.type = 'checkbox';
		box.dataset.seat = String(i);
		box.checked = view.marksOn.has(i);
		box.addEventListener('change', () => {
			if (box.checked)
				view.marksOn.add(i);
			else
				view.marksOn.delete(i);
			render();
		});
		label.append(box, document.createTextNode(' debug marks (' + n + ' rounds' +
			(dropped ? ', ' + dropped + ' dropped past the cap' : '') + ')'));
		return label;
	}

	function buildMarks(m) {
		const box = $('marks');
		box.replaceChildren();
		for (const f of frozenList(m.replay)) {
			const round = Math.max(0, Math.min(m.last, f.round));
			const b = el('button', 'mark', '\u00d7');
			b.style.left = (m.last ? 100 * round / m.last : 0) + '%';
			b.style.background = color(f.seat);
			b.title = playerName(m.replay.players[f.seat], f.seat) + ' ' + frozenText(f);
			b.addEventListener('click', () => seek(round));
			box.append(b);
		}
	}

	function buildLegend(game) {
		const box = $('legend');
		box.replaceChildren();
		for (const [c, text] of game.legend || []) {
			const s = el('span');
			if (c) {
				const i = el('i');
				i.style.background = c;
				s.append(i);
			}
			s.append(document.createTextNode(text));
			box.append(s);
		}
	}

	function buildFog(m) {
		if (!m.game.fog)
			return;
		const sel = $('fog');
		sel.replaceChildren(el('option', '', 'full board'));
		sel.options[0].value = '-1';
		const names = m.replay.players.map(playerName);
		names.forEach((name, i) => {
			/* Seats of one program are told apart by their place in the list. */
			const twin = names.indexOf(name) !== names.lastIndexOf(name);
			const o = el('option', '', name + (twin ? ' (' + (i + 1) + ')' : '') + "'s view");
			o.value = String(i);
			sel.append(o);
		});
		$('fogbox').hidden = false;
		sel.addEventListener('change', () => { view.fog = Number(sel.value); render(); });
	}

	/* The whole board (-1) or player k's view, as if chosen in the page. */
	function showView(k) {
		const sel = $('fog');
		sel.value = String(k);
		view.fog = sel.value === '' ? -1 : Number(sel.value);
	}

	/* The board canvas fills the stage's width, and the window's height
	 * with the CPU plot under it. */
	function sizeBoard(m, state) {
		const canvas = $('board'), stage = $('stage');
		const aspect = m.game.aspect(state);
		const plot = Array.isArray(m.replay.cpu_us) ? 96 : 0; /* the CPU plot under it */
		const room = Math.max(200, window.innerHeight - 170 - plot);
		let w = Math.max(200, stage.clientWidth - 24), h = w / aspect;
		if (h > room) {
			h = room;
			w = h * aspect;
		}
		const dpr = window.devicePixelRatio || 1;
		canvas.style.width = Math.round(w) + 'px';
		canvas.style.height = Math.round(h) + 'px';
		canvas.width = Math.round(w * dpr);
		canvas.height = Math.round(h * dpr);
	}

	function drawBoard(m, state) {
		const canvas = $('board'), ctx = canvas.getContext('2d');
		ctx.setTransform(1, 0, 0, 1, 0, 0);
		ctx.clearRect(0, 0, canvas.width, canvas.height);
		m.game.draw(ctx, state, boardView(canvas));
		view.debugDrawn = drawDebug(ctx, m, state, boardView(canvas));
	}

	const MARK_COLOUR = /^#[0-9a-f]{6}$/;

	/* The ticked seats' marks of this round (made while the players looked
	 * at this state): what was drawn, for tests. */
	function drawDebug(ctx, m, state, bv) {
		const drawn = [];
		if (!m.game.markAt)
			return drawn;
		for (const seat of [...view.marksOn].sort()) {
			const list = m.marks[seat] && m.marks[seat].get(view.round);
			for (const mark of list || []) {
				const d = drawMark(ctx, m, state, bv, seat, mark);
				if (d)
					drawn.push(d);
			}
		}
		return drawn;
	}

	function drawMark(ctx, m, state, bv, seat, mark) {
		if (!Array.isArray(mark) || !MARK_COLOUR.test(mark[1]))
			return null;
		const [kind, colour] = mark;
		const at = m.game.markAt(state, bv, seat, Number(mark[2]) || 0, Number(mark[3]) || 0);
		if (!at)
			return null;
		ctx.fillStyle = ctx.strokeStyle = colour;
		if (kind === 'dot') {
			ctx.beginPath();
			ctx.arc(at.x, at.y, Math.max(2, at.cs * 0.28), 0, 2 * Math.PI);
			ctx.fill();
		} else if (kind === 'line') {
			const to = m.game.markAt(state, bv, seat, Number(mark[4]) || 0, Number(mark[5]) || 0);
			if (!to)
				return null;
			ctx.lineWidth = Math.max(1.5, at.cs * 0.12);
			ctx.beginPath();
			ctx.moveTo(at.x, at.y);
			ctx.lineTo(to.x, to.y);
			ctx.stroke();
		} else if (kind === 'text' && typeof mark[4] === 'string') {
			ctx.font = 'bold ' + Math.max(9, Math.round(at.cs * 0.5)) + 'px system-ui, sans-serif';
			ctx.textAlign = 'center';
			ctx.textBaseline = 'middle';
			ctx.lineWidth = 3;
			ctx.strokeStyle = 'rgba(255,255,255,0.85)';
			ctx.strokeText(mark[4], at.x, at.y);
			ctx.fillText(mark[4], at.x, at.y);
		} else {
			return null;
		}
		return { seat, kind, colour, x: at.x, y: at.y };
	}

	function boardView(canvas) {
		const start = view.match.replay.start;
		return { w: canvas.width, h: canvas.height, colors: COLORS, round: view.round, fog: view.fog,
			 params: start && start.params ? start.params : {} };
	}

	/* Each player's score over the rounds, the current round marked. */
	/* A plot's canvas sized to its box (h0 high when it has none yet),
	 * cleared, drawn in CSS pixels. */
	function plotCanvas(canvas, h0) {
		const dpr = window.devicePixelRatio || 1;
		const w = canvas.clientWidth || 300, h = canvas.clientHeight || h0;
		if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
			canvas.width = Math.round(w * dpr);
			canvas.height = Math.round(h * dpr);
		}
		const ctx = canvas.getContext('2d');
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, w, h);
		return { ctx, w, h };
	}

	/* The current round, a line across a plot at x. */
	function roundLine(ctx, x, top, bottom) {
		ctx.strokeStyle = '#1d2330';
		ctx.lineWidth = 1;
		ctx.beginPath();
		ctx.moveTo(Math.round(x) + 0.5, top);
		ctx.lineTo(Math.round(x) + 0.5, bottom);
		ctx.stroke();
	}

	function drawPlot(m) {
		const { ctx, w, h } = plotCanvas($('plot'), 180);
		const pad = { l: 8, r: 8, t: 8, b: 18 };
		const n = m.replay.players.length;
		let max = 1;
		for (let r = 1; r <= m.last; r++)
			for (let i = 0; i < n; i++)
				max = Math.max(max, Number(m.scores(r)[i]) || 0);
		const x = (r) => pad.l + (w - pad.l - pad.r) * (m.last ? r / m.last : 0);
		const y = (v) => h - pad.b - (h - pad.t - pad.b) * (v / max);
		ctx.strokeStyle = '#e3e6ec';
		ctx.lineWidth = 1;
		for (let k = 0; k <= 4; k++) {
			ctx.beginPath();
			ctx.moveTo(pad.l, Math.round(y(max * k / 4)) + 0.5);
			ctx.lineTo(w - pad.r, Math.round(y(max * k / 4)) + 0.5);
			ctx.stroke();
		}
		ctx.fillStyle = '#667085';
		ctx.font = '11px system-ui, sans-serif';
		ctx.textBaseline = 'top';
		ctx.fillText(String(max), pad.l + 2, pad.t);
		ctx.fillText('round ' + m.last, w - pad.r - ctx.measureText('round ' + m.last).width, h - pad.b + 4);
		ctx.lineWidth = 2;
		for (let i = 0; i < n; i++) {
			ctx.strokeStyle = color(i);
			ctx.beginPath();
			ctx.moveTo(x(0), y(0));
			for (let r = 1; r <= m.last; r++)
				ctx.lineTo(x(r), y(m.scores(r)[i]));
			ctx.stroke();
		}
		roundLine(ctx, x(view.round), pad.t, h - pad.b);
		for (const f of frozenList(m.replay)) {
			const r = Math.max(0, Math.min(m.last, f.round));
			ctx.fillStyle = color(f.seat);
			ctx.beginPath();
			ctx.arc(x(r), y(m.scores(r)[f.seat] || 0), 4, 0, 2 * Math.PI);
			ctx.fill();
		}
	}

	/* Each seat's CPU time per round, under the board: where the time went. */
	function drawCpu(m) {
		const canvas = $('cpu'), cpu = m.replay.cpu_us;
		canvas.hidden = !Array.isArray(cpu);
		if (canvas.hidden)
			return;
		const { ctx, w, h } = plotCanvas(canvas, 90);
		const pad = { l: 8, r: 8, t: 16, b: 4 };
		const seats = cpu.map((a) => (Array.isArray(a) ? a : []).map((v) => Number(v) || 0));
		const max = Math.max(1, ...seats.map((a) => Math.max(0, ...a)));
		const x = (r) => pad.l + (w - pad.l - pad.r) * (m.last ? r / m.last : 0);
		const y = (v) => h - pad.b - (h - pad.t - pad.b) * (v / max);
		ctx.fillStyle = '#667085';
		ctx.font = '11px system-ui, sans-serif';
		ctx.textBaseline = 'top';
		ctx.fillText('CPU per round (most: ' + (max / 1000).toFixed(max < 10000 ? 2 : 1) + ' ms)', pad.l, 1);
		ctx.lineWidth = 1.5;
		seats.forEach((a, i) => {
			ctx.strokeStyle = color(i);
			ctx.beginPath();
			a.forEach((v, r) => (r ? ctx.lineTo(x(r + 0.5), y(v)) : ctx.moveTo(x(r + 0.5), y(v))));
			ctx.stroke();
		});
		roundLine(ctx, x(view.round), pad.t, h - pad.b);
	}

	function updatePanel(m, state) {
		const scores = m.scores(view.round);
		const stats = m.game.stats ? m.game.stats(state) : [];
		const live = view.round > 0 && m.rounds[view.round - 1].live;
		const frozen = frozenList(m.replay);
		[...$('players').children].forEach((li, i) => {
			li.querySelector('.score').textContent = String(scores[i]);
			li.querySelector('.stat').textContent = stats[i] || '';
			const out = (Array.isArray(live) ? !live[i] : frozen.some((f) => f.seat === i && f.round < 0)) ||
				    Boolean(m.game.out && m.game.out(state, i));
			li.classList.toggle('out', out);
		});
		$('seek').value = String(view.round);
		if (document.activeElement !== $('jump'))
			$('jump').value = String(view.round);
	}

	function render() {
		const m = view.match;
		if (!m)
			return;
		const state = m.state(view.round);
		drawBoard(m, state);
		drawPlot(m);
		drawCpu(m);
		updatePanel(m, state);
	}

	function seek(round) {
		const m = view.match;
		view.round = Math.max(0, Math.min(m.last, Math.round(Number(round) || 0)));
		render();
	}

	function setPlaying(on) {
		view.playing = on && view.match.last > 0;
		if (view.playing && view.round >= view.match.last)
			seek(0);
		$('play').querySelector('.when-paused').hidden = view.playing;
		$('play').querySelector('.when-playing').hidden = !view.playing;
		view.lastTick = performance.now();
		view.carry = 0;
		if (view.playing)
			requestAnimationFrame(tick);
	}

	function tick(now) {
		if (!view.playing)
			return;
		view.carry += (now - view.lastTick) * view.speed / 1000;
		view.lastTick = now;
		const steps = Math.floor(view.carry);
		if (steps > 0) {
			view.carry -= steps;
			seek(view.round + steps);
		}
		if (view.round >= view.match.last)
			setPlaying(false);
		else
			requestAnimationFrame(tick);
	}

	function bindControls() {
		$('first').addEventListener('click', () => seek(0));
		$('back').addEventListener('click', () => seek(view.round - 1));
		$('next').addEventListener('click', () => seek(view.round + 1));
		$('last').addEventListener('click', () => seek(view.match.last));
		$('play').addEventListener('click', () => setPlaying(!view.playing));
		$('seek').addEventListener('input', (e) => seek(e.target.value));
		$('jump').addEventListener('change', (e) => seek(e.target.value));
		$('speed').addEventListener('change', (e) => { view.speed = Number(e.target.value) || 10; });
		/* A resize may come before the match is loaded (a window sized as
		 * the page opens): there is nothing to size then. */
		window.addEventListener('resize', () => {
			if (!view.match)
				return;
			sizeBoard(view.match, view.match.state(view.round));
			render();
		});
		document.addEventListener('keydown', onKey);
	}

	function onKey(e) {
		const tag = e.target && e.target.tagName;
		/* Typing a round, choosing a speed, or Space on a focused button
		 * (which presses it) are not ours. */
		if (tag === 'INPUT' && e.target.type !== 'range' || tag === 'SELECT' ||
		    tag === 'BUTTON' && e.key === ' ')
			return;
		const step = e.shiftKey ? 10 : 1;
		const keys = {
			' ': () => setPlaying(!view.playing),
			ArrowRight: () => seek(view.round + step),
			ArrowLeft: () => seek(view.round - step),
			Home: () => seek(0),
			End: () => seek(view.match.last),
		};
		if (keys[e.key]) {
			e.preventDefault();
			keys[e.key]();
		}
	}

	function describe(m) {
		const r = m.replay, title = m.game.title || r.game;
		document.title = title + ' replay, seed ' + r.seed;
		$('title').textContent = title;
		const names = r.players.map(playerName).join(', ');
		$('subtitle').textContent = 'seed ' + r.seed + ' \u00b7 ' + m.last + ' rounds \u00b7 ' + names;
		$('of').textContent = 'of ' + m.last;
		$('seek').max = String(m.last);
		$('jump').max = String(m.last);
	}

	function show(replay) {
		const game = replay && Object.hasOwn(games, replay.game) ? games[replay.game] : null;
		if (!game)
			throw new Error('this viewer cannot draw the game "' + (replay && replay.game) +
					'"; it knows: ' + Object.keys(games).join(', '));
		if (!Array.isArray(replay.players))
			throw new Error('the replay names no players');
		view.phases.read = performance.now();
		const m = new Match(replay, game);
		view.phases.built = performance.now();
		view.match = m;
		const wantedMarks = hashParams().marks;
		for (const k of (wantedMarks || '').split(',').filter(Boolean))
			view.marksOn.add(Number(k));
		describe(m);
		buildPlayers(m);
		buildMarks(m);
		buildLegend(game);
		buildFog(m);
		$('open').hidden = true;
		$('main').hidden = false;
		sizeBoard(m, m.state(0));
		const wanted = hashParams();
		if ('fog' in wanted && game.fog)
			showView(Number(wanted.fog));
		seek('round' in wanted ? wanted.round : 0);
		view.drawnAt = performance.now();
		pressKeys(wanted.keys);
		const seeking = 'seeks' in wanted ? timeSeeks(m, Number(wanted.seeks) || 100, view.round) : null;
		if ('round' in wanted)
			writeState(m, wanted, seeking);
	}

	/* ---- what tests and the benchmark read ----------------------------- */

	function hashParams() {
		const out = {};
		for (const part of location.hash.replace(/^#/, '').split('&')) {
			if (!part)
				continue;
			const [k, v] = part.split('=');
			out[decodeURIComponent(k)] = v === undefined ? '' : decodeURIComponent(v);
		}
		if (out.round === 'last')
			out.round = view.match ? view.match.last : 0;
		return out;
	}

	/* #keys=End,Shift+ArrowLeft: keys pressed once the page is up. */
	function pressKeys(list) {
		for (const k of (list || '').split(',').filter(Boolean)) {
			const shift = k.startsWith('Shift+'), key = shift ? k.slice(6) : k;
			document.dispatchEvent(new KeyboardEvent('keydown', { key: key === 'Space' ? ' ' : key,
									      shiftKey: shift, bubbles: true }));
		}
	}

	/* n seeks to rounds spread over the match (each one drawn), then back
	 * to `back`: the slowest and the mean time of one, in ms. */
	function timeSeeks(m, n, back) {
		let slowest = 0, total = 0;
		for (let k = 1; k <= n; k++) {
			const t = performance.now();
			seek(Math.floor((k * 7919) % (m.last + 1)));
			const took = performance.now() - t;
			slowest = Math.max(slowest, took);
			total += took;
		}
		seek(back);
		return { seeks: n, slowestMs: slowest, meanMs: total / n };
	}

	function canvasSummary(canvas) {
		const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
		const colours = new Set();
		let sum = 0;
		for (let i = 0; i < data.length; i += 4) {
			const v = data[i] << 16 | data[i + 1] << 8 | data[i + 2];
			sum = (sum + v * (1 + (i & 1023))) % 2147483647;
			if (colours.size < 1000)
				colours.add(v * 256 + data[i + 3]);
		}
		return { sum, colours: colours.size, w: canvas.width, h: canvas.height };
	}

	function pixelAt(canvas, x, y) {
		const d = canvas.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
		return '#' + [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, '0')).join('');
	}

	function writeState(m, wanted, seeking) {
		const canvas = $('board');
		const state = m.state(view.round);
		const probe = m.game.probe(state, boardView(canvas));
		const out = {
			game: m.replay.game, round: view.round, rounds: m.last, fog: view.fog,
			drawnMs: view.drawnAt, phases: view.phases,
			scores: m.scores(view.round),
			plotLast: m.scores(m.last),
			names: [...document.querySelectorAll('#players .name')].map((e) => e.textContent),
			labels: [...document.querySelectorAll('#players .label')].map((e) => e.textContent),
			frozen: [...document.querySelectorAll('#players .frozen')].map((e) => e.textContent),
			marks: [...document.querySelectorAll('#marks .mark')].map((e) => e.title),
			images: document.images.length,
			marksOn: [...view.marksOn],
			toggles: [...document.querySelectorAll('.debug-toggle input')].map((e) => e.checked),
			debugNotes: [...document.querySelectorAll('.debug-note')].map((e) => e.textContent),
			debugDrawn: drawnMarks(),
			cpu: canvasSummary($('cpu')),
			canvas: canvasSummary(canvas),
			digest: digest(probe),
			units: probe.units, board: probe.board, counts: probe.counts,
			pixels: (probe.pixels || []).map((p) => ({ ...p, got: pixelAt(canvas, p.x, p.y) })),
		};
		if (seeking)
			out.seeking = seeking;
		if ('check' in wanted)
			out.fromStart = digest(m.game.probe(m.stateFromStart(view.round), boardView(canvas)));
		out.errors = errors.slice();
		$('state').textContent = JSON.stringify(out);
	}

	/* ---- start ----------------------------------------------------------- */

	function openFile(file) {
		file.text().then((text) => show(parseReplay(text))).catch(reportError);
	}

	async function start() {
		try {
			bindControls();
			const replay = await embeddedReplay();
			if (replay) {
				show(replay);
			} else {
				$('open').hidden = false;
				$('file').addEventListener('change', (e) => e.target.files[0] && openFile(e.target.files[0]));
			}
		} catch (e) {
			reportError(e && e.message ? e.message : e);
		}
		if (errors.length) {
			const text = $('state').textContent;
			$('state').textContent = JSON.stringify({ ...(text ? JSON.parse(text) : {}), errors });
		}
	}

	function register(name, module) {
		games[name] = module;
	}

	/* For tests: the debug marks on the board now, each with the colour
	 * of the board's pixel at its place. */
	function drawnMarks() {
		return (view.debugDrawn || []).map((d) => ({ ...d, got: pixelAt($('board'), d.x, d.y) }));
	}

	return { register, start, games, grid, cellAt, tint, COLORS, drawnMarks };
})();
