/* SPDX-License-Identifier: GPL-2.0-only */
/* Loaded by tests/report/interactive.sh into a copy of a report: drives the interactive
 * plots with synthetic mouse events and writes what it saw into <pre id="selftest">. */
(function () {
	'use strict';
	var out = [], started = Date.now();
	function say(s) { out.push(s); }
	function fire(target, type, x, y, shift) {
		target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, clientX: x,
			clientY: y, shiftKey: !!shift, view: window }));
	}
	function overlaps(a, b) {
		return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
	}
	function checkBoxes(what, boxes) {
		for (var i = 0; i < boxes.length; i++)
			for (var j = i + 1; j < boxes.length; j++)
				if (overlaps(boxes[i].r, boxes[j].r))
					say('OVERLAP ' + what + ': "' + boxes[i].t + '" and "' + boxes[j].t + '"');
	}
	function pixel(plot, x, y) {
		var d = plot.cv.getContext('2d').getImageData(Math.round(x * plot.dpr), Math.round(y * plot.dpr), 1, 1).data;
		return [d[0], d[1], d[2]];
	}
	/* the point of series s farthest from every other visible point, on screen */
	function lonely(plot, s) {
		var best = -1, bd = -1;
		for (var i = 0; i < s.x.length; i++) {
			var px = plot.px(s.x[i]), py = plot.py(s.y[i]), near = Infinity;
			if (s.y[i] > plot.view[3] || px < 80 || py < 20) continue;
			plot.series.forEach(function (t) {
				for (var k = 0; k < t.x.length; k++) {
					if (t === s && k === i) continue;
					var dx = plot.px(t.x[k]) - px, dy = plot.py(t.y[k]) - py;
					near = Math.min(near, dx * dx + dy * dy);
				}
			});
			if (near > bd) { bd = near; best = i; }
		}
		return best;
	}
	function scatterTests(fig) {
		var plot = fig.plot, cv = plot.cv, r = cv.getBoundingClientRect();
		/* hover: the readout names the point's row */
		var s = plot.series[0], i = lonely(plot, s);
		fire(cv, 'mousemove', r.left + plot.px(s.x[i]), r.top + plot.py(s.y[i]));
		say('HOVER ' + fig.dataset.plot + ' expect-row ' + s.rows[i] + ' readout ' + plot.readout.textContent);
		/* toggle: run 1's lonely point is painted before, not after */
		var s1 = plot.series.filter(function (t) { return t.s.g === 1; })[0], j = lonely(plot, s1);
		var px = plot.px(s1.x[j]), py = plot.py(s1.y[j]);
		say('PIXEL-ON ' + pixel(plot, px, py).join(','));
		var box = fig.querySelector('input[data-group="1"]');
		box.checked = false;
		box.dispatchEvent(new Event('change'));
		say('PIXEL-OFF ' + pixel(plot, px, py).join(','));
		fire(cv, 'mousemove', r.left + px, r.top + py);
		say('HOVER-OFF ' + plot.readout.textContent);
		box.checked = true;
		box.dispatchEvent(new Event('change'));
		/* zoom: a box over the middle quarter */
		var before = fig.dataset.view, w = r.width, h = r.height;
		fire(cv, 'mousedown', r.left + w * 0.4, r.top + h * 0.3);
		fire(cv, 'mousemove', r.left + w * 0.6, r.top + h * 0.6);
		fire(window, 'mouseup', r.left + w * 0.6, r.top + h * 0.6);
		say('ZOOM ' + before + ' -> ' + fig.dataset.view);
		/* pan with shift, then reset by double-click */
		var zoomed = fig.dataset.view;
		fire(cv, 'mousedown', r.left + w * 0.5, r.top + h * 0.5, true);
		fire(cv, 'mousemove', r.left + w * 0.3, r.top + h * 0.5, true);
		fire(window, 'mouseup', r.left + w * 0.3, r.top + h * 0.5, true);
		say('PAN ' + zoomed + ' -> ' + fig.dataset.view);
		fire(cv, 'dblclick', r.left + w * 0.5, r.top + h * 0.5);
		say('RESET ' + fig.dataset.view);
	}
	function svgLabels(done) {
		var figs = document.querySelectorAll('figure img[src$=".svg"]'), left = figs.length;
		if (!left) return done();
		Array.prototype.forEach.call(figs, function (img) {
			var o = document.createElement('object');
			o.type = 'image/svg+xml';
			o.data = img.getAttribute('src');
			o.style.cssText = 'position:absolute;left:0;top:0;width:1332px;height:430px;visibility:hidden';
			o.onload = function () {
				var doc = o.contentDocument, boxes = [];
				if (!doc) say('NOSVG ' + o.data);
				else Array.prototype.forEach.call(doc.querySelectorAll('text'), function (t) {
					var b = t.getBoundingClientRect();
					if (t.textContent.trim() && b.width > 0)
						boxes.push({ t: t.textContent.trim(), r: [b.left, b.top, b.width, b.height] });
				});
				say('SVG ' + o.data + ' ' + boxes.length + ' labels');
				checkBoxes(o.data, boxes);
				if (--left === 0) done();
			};
			document.body.appendChild(o);
		});
	}
	function finish() {
		var pre = document.createElement('pre');
		pre.id = 'selftest';
		pre.textContent = out.join('\n') + '\nDONE\n';
		document.body.appendChild(pre);
	}
	function run() {
		var figs = document.querySelectorAll('figure[data-plot]'), live = 0;
		Array.prototype.forEach.call(figs, function (f) { live += f.plot ? 1 : 0; });
		if (live < figs.length && Date.now() - started < 20000) return setTimeout(run, 50);
		say('LIVE ' + live + ' of ' + figs.length);
		Array.prototype.forEach.call(figs, function (f) {
			if (!f.plot) return;
			var b = JSON.parse(f.dataset.labels).map(function (r) { return { t: 'label', r: r }; });
			checkBoxes('canvas ' + f.dataset.plot, b);
		});
		var legend = document.querySelector('.legend'), vw = document.documentElement.clientWidth;
		Array.prototype.forEach.call(document.querySelectorAll('.legend span.run'), function (s) {
			var b = s.getBoundingClientRect();
			say('LEGEND ' + Math.round(b.left) + ' ' + Math.round(b.right) + ' of ' + vw + ' ' + s.textContent);
		});
		var sc = document.querySelector('figure[data-plot$="-vs-LDist"]');
		if (sc && sc.plot && document.location.hash !== '#nomouse') scatterTests(sc);
		svgLabels(finish);
	}
	if (document.readyState === 'complete') run();
	else window.addEventListener('load', run);
})();
