/* idlescope report: interactive plots. SPDX-License-Identifier: GPL-2.0-only
 *
 * Every <figure data-plot="ID"> gets plots/ID.js, which calls idlescopePlot(ID, spec), and
 * becomes a canvas: drag a box to zoom, shift+drag (or the Pan mode) to pan, double-click or
 * Reset to go back, hover for the nearest datapoint's values (and row), tick a run off and on.
 * The static image stays for printing and for browsers without JavaScript.
 * spec: xl, yl (axis labels), lx, ly (log axes), v [x0, x1, y0, y1] (the initial view),
 * g [run names], gc [their colours], s [series: g (group, -1: always), k ('p' points, 'l'
 * lines, 's' steps, 'b' bars x0,x1,y), c (colour), w (line width), m (marker), n (name),
 * d (flat x,y,... data), r (row deltas of the points), dt (dashed)], xt [[x, label]...]
 * (fixed x ticks), hy [y...] (dashed horizontal lines), vx [x...] (dotted vertical lines).
 */
(function () {
	'use strict';
	var M = { l: 64, r: 14, t: 12, b: 44 }, FONT = '12px sans-serif', CHUNKS = 16;
	var figs = {};

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined) e.textContent = text;
		return e;
	}

	function num(v, step) {
		if (!isFinite(v)) return String(v);
		var a = Math.abs(v);
		if (a !== 0 && (a >= 1e7 || a < 1e-4)) return v.toExponential(2).replace('e+', 'e');
		var dec = step ? Math.max(0, Math.min(9, -Math.floor(Math.log10(step) + 1e-9))) : 0;
		if (!step) dec = a >= 1000 ? 1 : a >= 1 ? 3 : 5;
		return String(Number(v.toFixed(dec)));
	}

	function ticks(lo, hi, log, px) {
		var out = [], n = Math.max(2, Math.floor(px / 70));
		if (log) {
			var d0 = Math.floor(lo), d1 = Math.ceil(hi), span = d1 - d0;
			var mult = span > n ? [1] : span > n / 3 ? [1, 3] : [1, 2, 5];
			var every = Math.max(1, Math.ceil(span / n));
			for (var d = d0; d <= d1; d++)
				for (var i = 0; i < mult.length; i++) {
					var v = Math.log10(mult[i]) + d;
					if (v >= lo - 1e-9 && v <= hi + 1e-9 && (mult.length > 1 || d % every === 0))
						out.push([v, num(Math.pow(10, v))]);
				}
			if (out.length >= 2) return out;
			return ticks(Math.pow(10, lo), Math.pow(10, hi), false, px).map(function (t) {
				return [Math.log10(t[0]), t[1]];
			}).filter(function (t) { return isFinite(t[0]); });
		}
		var raw = (hi - lo) / n, p = Math.pow(10, Math.floor(Math.log10(raw)));
		var step = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
		if (!(step > 0) || !isFinite(step)) return [[lo, num(lo)]];
		for (var x = Math.ceil(lo / step) * step; x <= hi + step * 1e-9; x += step)
			out.push([x, num(Math.abs(x) < step * 1e-9 ? 0 : x, step)]);
		return out;
	}

	function Plot(fig, spec) {
		var self = this;
		this.fig = fig;
		this.spec = spec;
		this.tx = function (v) { return spec.lx ? Math.log10(v) : v; };
		this.ty = function (v) { return spec.ly ? Math.log10(v) : v; };
		this.home = [this.tx(spec.v[0]), this.tx(spec.v[1]), this.ty(spec.v[2]), this.ty(spec.v[3])];
		this.view = this.home.slice();
		this.off = {};
		this.mode = 'zoom';
		this.series = spec.s.map(function (s) { return self.prepare(s); });
		this.build();
		this.draw();
	}

	/* screen-independent coordinates (log10 on log axes), rows restored from their deltas */
	function bytes(b64) {
		var t = atob(b64), a = new Uint8Array(t.length);
		for (var i = 0; i < t.length; i++) a[i] = t.charCodeAt(i);
		return a;
	}

	/* points: 16-bit codes over [q0, q0 + 65535 q1] and [q2, ...]; rows: LEB128 deltas */
	function unpack(s) {
		var b = bytes(s.d), q = s.q, d = [], rows = [];
		for (var i = 0; i + 3 < b.length; i += 4)
			d.push(q[0] + (b[i] | b[i + 1] << 8) * q[1], q[2] + (b[i + 2] | b[i + 3] << 8) * q[3]);
		if (s.r) {
			var r = bytes(s.r), row = 0;
			for (var k = 0; k < r.length;) {
				var v = 0, sh = 1, c;
				do { c = r[k++]; v += (c & 127) * sh; sh *= 128; } while (c & 128);
				rows.push(row += v);
			}
		}
		return { d: d, rows: s.r ? rows : null };
	}

	Plot.prototype.prepare = function (s) {
		var rows = null;
		if (typeof s.d === 'string') {
			var u = unpack(s);
			s.d = u.d;
			rows = u.rows;
		}
		var d = s.d || [], n = s.k === 'b' ? d.length / 3 : d.length / 2, xs = [], ys = [];
		for (var i = 0; i < n; i++) {
			if (s.k === 'b') {
				xs.push(this.tx(d[3 * i]), this.tx(d[3 * i + 1]));
				ys.push(this.ty(d[3 * i + 2]));
			} else {
				xs.push(this.tx(d[2 * i]));
				ys.push(this.ty(d[2 * i + 1]));
			}
		}
		return { s: s, x: xs, y: ys, rows: rows, raw: d };
	};

	Plot.prototype.build = function () {
		var self = this, spec = this.spec, fig = this.fig;
		var box = el('div', 'iplot');
		var bar = el('div', 'ibar');
		var reset = el('button', 'reset', 'Reset');
		reset.type = 'button';
		reset.onclick = function () { self.reset(); };
		var pan = el('button', 'pan', 'Pan');
		pan.type = 'button';
		pan.onclick = function () {
			self.mode = self.mode === 'pan' ? 'zoom' : 'pan';
			pan.classList.toggle('on', self.mode === 'pan');
		};
		bar.appendChild(reset);
		bar.appendChild(pan);
		bar.appendChild(el('span', 'hint', 'drag: zoom · shift+drag: pan · double-click: reset'));
		box.appendChild(bar);
		if (spec.g && spec.g.length > 1) {
			var leg = el('div', 'ilegend');
			spec.g.forEach(function (name, g) {
				var lab = el('label', 'run');
				var cb = el('input');
				cb.type = 'checkbox';
				cb.checked = true;
				cb.dataset.group = g;
				cb.onchange = function () { self.off[g] = !cb.checked; self.draw(); };
				var sw = el('span', 'swatch');
				sw.style.background = spec.gc[g];
				lab.appendChild(cb);
				lab.appendChild(sw);
				lab.appendChild(document.createTextNode(name));
				leg.appendChild(lab);
				leg.appendChild(document.createTextNode(' '));
			});
			box.appendChild(leg);
		}
		var cv = el('canvas');
		this.cv = cv;
		box.appendChild(cv);
		this.readout = el('div', 'readout', '\u00a0');
		box.appendChild(this.readout);
		fig.insertBefore(box, fig.firstChild);
		fig.classList.add('live');
		this.wire(cv);
		window.addEventListener('resize', function () { self.draw(); });
	};

	Plot.prototype.size = function () {
		var cv = this.cv, w = Math.max(200, cv.parentNode.clientWidth), h = Math.round(w * 0.62);
		var dpr = window.devicePixelRatio || 1;
		if (cv.width !== Math.round(w * dpr)) {
			cv.width = Math.round(w * dpr);
			cv.height = Math.round(h * dpr);
			cv.style.width = w + 'px';
			cv.style.height = h + 'px';
		}
		this.W = w;
		this.H = h;
		this.dpr = dpr;
	};

	Plot.prototype.px = function (x) {
		var v = this.view;
		return M.l + (x - v[0]) / (v[1] - v[0]) * (this.W - M.l - M.r);
	};
	Plot.prototype.py = function (y) {
		var v = this.view;
		return this.H - M.b - (y - v[2]) / (v[3] - v[2]) * (this.H - M.t - M.b);
	};
	Plot.prototype.unpx = function (p) {
		var v = this.view;
		return v[0] + (p - M.l) / (this.W - M.l - M.r) * (v[1] - v[0]);
	};
	Plot.prototype.unpy = function (p) {
		var v = this.view;
		return v[2] + (this.H - M.b - p) / (this.H - M.t - M.b) * (v[3] - v[2]);
	};

	Plot.prototype.visible = function (s) {
		return s.s.g < 0 || !this.off[s.s.g];
	};

	/* labels are placed only where they do not overlap one drawn before */
	Plot.prototype.label = function (ctx, text, x, y, align, base) {
		var w = ctx.measureText(text).width, h = 13;
		var x0 = align === 'center' ? x - w / 2 : align === 'right' ? x - w : x;
		var y0 = base === 'top' ? y : base === 'bottom' ? y - h : y - h / 2;
		for (var i = 0; i < this.labels.length; i++) {
			var b = this.labels[i];
			if (x0 < b[0] + b[2] + 3 && b[0] < x0 + w + 3 && y0 < b[1] + b[3] && b[1] < y0 + h)
				return false;
		}
		ctx.textAlign = align;
		ctx.textBaseline = base;
		ctx.fillText(text, x, y);
		this.labels.push([x0, y0, w, h]);
		return true;
	};

	Plot.prototype.axes = function (ctx) {
		var self = this, spec = this.spec, v = this.view, W = this.W, H = this.H;
		ctx.strokeStyle = '#e2e2e2';
		ctx.fillStyle = '#333';
		ctx.font = FONT;
		ctx.lineWidth = 1;
		var xt = spec.xt && !spec.lx ? spec.xt.filter(function (t) { return t[0] >= v[0] && t[0] <= v[1]; })
					     : ticks(v[0], v[1], spec.lx, W - M.l - M.r);
		if (spec.xt && xt.length < 2) xt = ticks(v[0], v[1], false, W - M.l - M.r);
		var yt = ticks(v[2], v[3], spec.ly, H - M.t - M.b);
		ctx.beginPath();
		xt.forEach(function (t) { var p = Math.round(self.px(t[0])) + 0.5; ctx.moveTo(p, M.t); ctx.lineTo(p, H - M.b); });
		yt.forEach(function (t) { var p = Math.round(self.py(t[0])) + 0.5; ctx.moveTo(M.l, p); ctx.lineTo(W - M.r, p); });
		ctx.stroke();
		/* the axis titles first: tick labels give way to them */
		this.label(ctx, spec.xl, (M.l + W - M.r) / 2, H - 2, 'center', 'bottom');
		ctx.save();
		ctx.translate(12, (M.t + H - M.b) / 2);
		ctx.rotate(-Math.PI / 2);
		ctx.textAlign = 'center';
		ctx.textBaseline = 'middle';
		ctx.fillText(spec.yl, 0, 0);
		ctx.restore();
		this.labels.push([2, M.t, 18, H - M.t - M.b]);
		xt.forEach(function (t) { self.label(ctx, t[1], self.px(t[0]), H - M.b + 4, 'center', 'top'); });
		yt.forEach(function (t) { self.label(ctx, t[1], M.l - 5, self.py(t[0]), 'right', 'middle'); });
		ctx.strokeStyle = '#555';
		ctx.strokeRect(M.l + 0.5, M.t + 0.5, W - M.l - M.r, H - M.t - M.b);
	};

	function marker(ctx, m, x, y, r) {
		switch (m % 6) {
		case 1: ctx.moveTo(x, y - r); ctx.lineTo(x + r, y + r); ctx.lineTo(x - r, y + r); ctx.closePath(); break;
		case 2: ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y); ctx.closePath(); break;
		case 3: ctx.moveTo(x, y + r); ctx.lineTo(x + r, y - r); ctx.lineTo(x - r, y - r); ctx.closePath(); break;
		case 4: ctx.moveTo(x + r, y); ctx.arc(x, y, r, 0, 2 * Math.PI); break;
		default: ctx.rect(x - r, y - r, 2 * r, 2 * r);
		}
	}

	Plot.prototype.drawSeries = function (ctx, s, chunk) {
		var st = s.s, n = s.y.length, self = this, top = this.view[3];
		ctx.strokeStyle = ctx.fillStyle = st.c;
		ctx.lineWidth = st.w || 1.5;
		ctx.setLineDash(st.dt ? [6, 4] : []);
		ctx.beginPath();
		if (st.k === 'p') {
			var r = n < 1000 ? 3 : n < 5000 ? 2.2 : 1.6, edge = this.py(top) - 1;
			var from = Math.floor(n * chunk / CHUNKS), to = Math.floor(n * (chunk + 1) / CHUNKS);
			for (var i = from; i < to; i++) {
				var x = this.px(s.x[i]);
				if (!isFinite(x) || !isFinite(s.y[i])) continue;
				if (s.y[i] > top) {  /* above the view: a cross on its top edge */
					ctx.moveTo(x - 3, edge - 3); ctx.lineTo(x + 3, edge + 3);
					ctx.moveTo(x + 3, edge - 3); ctx.lineTo(x - 3, edge + 3);
					continue;
				}
				marker(ctx, st.m || 0, x, this.py(s.y[i]), r);
			}
			ctx.fill();
			ctx.lineWidth = 1;
			ctx.stroke();
		} else if (st.k === 'b') {
			for (var b = 0; b < n; b++) {
				var x0 = this.px(s.x[2 * b]), x1 = this.px(s.x[2 * b + 1]), y0 = this.py(s.y[b]);
				ctx.rect(x0, y0, x1 - x0, this.py(this.view[2]) - y0);
			}
			ctx.globalAlpha = 0.5;
			ctx.fill();
			ctx.globalAlpha = 1;
		} else {
			for (var k = 0; k < n; k++) {
				var X = this.px(s.x[k]), Y = this.py(s.y[k]);
				if (k === 0) ctx.moveTo(X, Y);
				else if (st.k === 's') { ctx.lineTo(X, self.py(s.y[k - 1])); ctx.lineTo(X, Y); }
				else ctx.lineTo(X, Y);
			}
			ctx.stroke();
		}
		ctx.setLineDash([]);
	};

	Plot.prototype.draw = function () {
		var self = this, spec = this.spec;
		this.size();
		var ctx = this.cv.getContext('2d');
		ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
		ctx.fillStyle = '#fff';
		ctx.fillRect(0, 0, this.W, this.H);
		this.labels = [];
		this.axes(ctx);
		ctx.save();
		ctx.beginPath();
		ctx.rect(M.l, M.t - 6, this.W - M.l - M.r, this.H - M.t - M.b + 6);
		ctx.clip();
		ctx.strokeStyle = '#888';
		ctx.setLineDash([5, 4]);
		ctx.beginPath();
		(spec.hy || []).forEach(function (y) { var p = self.py(self.ty(y)); ctx.moveTo(M.l, p); ctx.lineTo(self.W - M.r, p); });
		(spec.vx || []).forEach(function (x) { var p = self.px(self.tx(x)); ctx.moveTo(p, M.t); ctx.lineTo(p, self.H - M.b); });
		ctx.stroke();
		ctx.setLineDash([]);
		this.series.forEach(function (s) { if (self.visible(s) && s.s.k !== 'p') self.drawSeries(ctx, s); });
		/* points in chunks taken from every run in turn, so that no run hides another */
		var pts = this.series.filter(function (s) { return self.visible(s) && s.s.k === 'p'; });
		for (var c = 0; c < CHUNKS; c++)
			pts.forEach(function (s) { self.drawSeries(ctx, s, c); });
		if (this.hit) {
			ctx.strokeStyle = '#000';
			ctx.lineWidth = 1.5;
			ctx.beginPath();
			ctx.arc(this.hit.px, this.hit.py, 6, 0, 2 * Math.PI);
			ctx.stroke();
		}
		if (this.drag && this.drag.box) {
			var d = this.drag;
			ctx.fillStyle = 'rgba(0,114,178,0.12)';
			ctx.strokeStyle = '#0072B2';
			ctx.fillRect(d.x0, d.y0, d.x1 - d.x0, d.y1 - d.y0);
			ctx.strokeRect(d.x0, d.y0, d.x1 - d.x0, d.y1 - d.y0);
		}
		ctx.restore();
		var v = this.view, ux = spec.lx ? function (t) { return Math.pow(10, t); } : Number;
		var uy = spec.ly ? function (t) { return Math.pow(10, t); } : Number;
		this.fig.dataset.view = [ux(v[0]), ux(v[1]), uy(v[2]), uy(v[3])].join(' ');
		var r = this.cv.getBoundingClientRect();
		this.fig.dataset.labels = JSON.stringify(this.labels.map(function (b) {
			return [b[0] + r.left + window.scrollX, b[1] + r.top + window.scrollY, b[2], b[3]];
		}));
	};

	Plot.prototype.reset = function () {
		this.view = this.home.slice();
		this.hit = null;
		this.draw();
	};

	/* the nearest visible datapoint within 24 px of (mx, my) */
	Plot.prototype.nearest = function (mx, my) {
		var best = null, bd = 24 * 24, top = this.view[3];
		for (var si = 0; si < this.series.length; si++) {
			var s = this.series[si];
			if (!this.visible(s)) continue;
			for (var i = 0; i < s.y.length; i++) {
				var bar = s.s.k === 'b';  /* a bar: the middle of its top */
				var px = bar ? (this.px(s.x[2 * i]) + this.px(s.x[2 * i + 1])) / 2 : this.px(s.x[i]);
				var py = s.y[i] > top && s.s.k === 'p' ? this.py(top) - 1 : this.py(s.y[i]);
				var d = (px - mx) * (px - mx) + (py - my) * (py - my);
				if (d < bd) { bd = d; best = { s: s, i: i, px: px, py: py }; }
			}
		}
		return best;
	};

	Plot.prototype.describe = function (h) {
		var st = h.s.s, spec = this.spec, x = h.s.raw[2 * h.i], y = h.s.raw[2 * h.i + 1];
		var who = st.n || (st.g >= 0 && spec.g ? spec.g[st.g] : '');
		if (st.k === 'b') return who + ' (' + num(h.s.raw[3 * h.i + 2]) + '%)';
		var q = st.q || [0, 0, 0, 0];
		var t = (who ? who + ': ' : '') + spec.xl + ' = ' + num(x, q[1]) + ', ' + spec.yl + ' = ' + num(y, q[3]);
		if (h.s.rows) t += ', row ' + h.s.rows[h.i];
		return t;
	};

	Plot.prototype.wire = function (cv) {
		var self = this;
		function pos(e) {
			var r = cv.getBoundingClientRect();
			return [e.clientX - r.left, e.clientY - r.top];
		}
		cv.addEventListener('mousedown', function (e) {
			var p = pos(e);
			self.drag = { x0: p[0], y0: p[1], x1: p[0], y1: p[1], pan: e.shiftKey || self.mode === 'pan',
				      view: self.view.slice() };
			e.preventDefault();
		});
		cv.addEventListener('mousemove', function (e) {
			var p = pos(e), d = self.drag;
			if (d) {
				d.x1 = p[0];
				d.y1 = p[1];
				if (d.pan) {
					var v = d.view, sx = (v[1] - v[0]) / (self.W - M.l - M.r), sy = (v[3] - v[2]) / (self.H - M.t - M.b);
					var dx = (p[0] - d.x0) * sx, dy = (p[1] - d.y0) * sy;
					self.view = [v[0] - dx, v[1] - dx, v[2] + dy, v[3] + dy];
				} else {
					d.box = true;
				}
				self.draw();
				return;
			}
			var h = self.nearest(p[0], p[1]);
			self.hit = h;
			self.readout.textContent = h ? self.describe(h) : '\u00a0';
			self.draw();
		});
		window.addEventListener('mouseup', function () {
			var d = self.drag;
			self.drag = null;
			if (!d) return;
			if (!d.pan && Math.abs(d.x1 - d.x0) > 4 && Math.abs(d.y1 - d.y0) > 4) {
				var xa = self.unpx(Math.min(d.x0, d.x1)), xb = self.unpx(Math.max(d.x0, d.x1));
				var ya = self.unpy(Math.max(d.y0, d.y1)), yb = self.unpy(Math.min(d.y0, d.y1));
				self.view = [xa, xb, ya, yb];
			}
			self.draw();
		});
		cv.addEventListener('mouseleave', function () {
			self.hit = null;
			if (!self.drag) self.draw();
		});
		cv.addEventListener('dblclick', function () { self.reset(); });
	};

	window.idlescopePlot = function (id, spec) {
		var fig = figs[id];
		if (fig && !fig.plot) fig.plot = new Plot(fig, spec);
	};

	function start() {
		var list = document.querySelectorAll('figure[data-plot]');
		for (var i = 0; i < list.length; i++) {
			var fig = list[i], id = fig.dataset.plot;
			figs[id] = fig;
			var sc = document.createElement('script');
			sc.src = 'plots/' + id + '.js';
			document.body.appendChild(sc);
		}
	}
	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
	else start();
})();
