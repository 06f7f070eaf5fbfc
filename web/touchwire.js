/*
 * touchwire.js — touchwire's gestures in a web page, as DOM events.
 *
 * No build step, no framework, no external fetch: load it with
 *
 *     <script src="touchwire.js"></script>
 *
 * and connect to the bridge (`touchwire-web`, docs/web.md), which serves touchwire's event lines
 * (docs/formats.md §2) over a WebSocket, one message per gesture event:
 *
 *     const tw = touchwire.connect({ url: "ws://127.0.0.1:8787/", panel: { width: 800, height: 480 } });
 *     document.getElementById("ok").addEventListener("touchwire:tap", (e) => {
 *         console.log(e.detail.recognizer, e.detail.x, e.detail.y);   // the event object of §2
 *     });
 *
 * Each event is dispatched as a bubbling `CustomEvent` named `touchwire:<kind>` (`touchwire:tap`,
 * `touchwire:long_press`, `touchwire:pan`, `touchwire:swipe`, `touchwire:pinch`,
 * `touchwire:rotation`, `touchwire:stroke`, `touchwire:checkmark`, `touchwire:control`) on the
 * element under the gesture's point: the event's `x`, `y` (panel pixels) mapped onto the viewport
 * (`panel` size → `window.innerWidth` × `innerHeight`, or your own `map`), then
 * `document.elementFromPoint`. Elements with `pointer-events: none` are looked through, as for a
 * click. A point outside the viewport goes to `document`. `event.detail` is the event object as
 * touchwire wrote it; `event.viewportX`/`viewportY` is where it landed in the page. Events arrive
 * in the order touchwire sent them.
 *
 * The connection reconnects by itself, with back-off (`minDelay` 250 ms doubling to `maxDelay`
 * 5 s, ±20 % jitter) and the delay reset once a connection opens. Its state goes out as
 * `touchwire:status` on `document` (detail `{ state: "connecting" | "open" | "closed", url,
 * attempt, delay }`).
 *
 * connect(options) → { close(), send(command), get state(), get url() }. `send("display on")`
 * passes one command line to touchwire (the bridge forwards `display …` lines only; false when
 * not connected). Options (all optional):
 *   url        the bridge (default: `?touchwire=` of the page's URL, else ws://127.0.0.1:8787/)
 *   panel      { width, height } of the touch panel in px (default: the viewport's size, 1:1)
 *   map        function (x, y) → { x, y } in viewport px, instead of `panel`
 *   minDelay, maxDelay   reconnection back-off in ms
 *   onevent    function (event, target) called after each dispatch
 *   WebSocket  the constructor to use (tests)
 */
(function (root) {
    "use strict";

    var DEFAULT_URL = "ws://127.0.0.1:8787/";

    function defaultURL() {
        try {
            var q = new URLSearchParams(root.location.search).get("touchwire");
            if (q) return q;
        } catch (e) { /* no location (a worker, a test) */ }
        return DEFAULT_URL;
    }

    function connect(options) {
        options = options || {};
        var url = options.url || defaultURL();
        var minDelay = options.minDelay || 250;
        var maxDelay = options.maxDelay || 5000;
        var WS = options.WebSocket || root.WebSocket;
        var doc = root.document;
        var socket = null;
        var state = "closed";
        var attempt = 0;
        var timer = null;
        var stopped = false;

        function status(next, delay) {
            state = next;
            doc.dispatchEvent(new CustomEvent("touchwire:status", {
                detail: { state: next, url: url, attempt: attempt, delay: delay || 0 },
            }));
        }

        function toViewport(x, y) {
            if (typeof options.map === "function") return options.map(x, y);
            var w = root.innerWidth, h = root.innerHeight;
            var pw = (options.panel && options.panel.width) || w;
            var ph = (options.panel && options.panel.height) || h;
            return { x: x * w / pw, y: y * h / ph };
        }

        function deliver(event) {
            if (!event || typeof event.kind !== "string") return;
            var target = doc;
            var p = null;
            if (typeof event.x === "number" && typeof event.y === "number") {
                p = toViewport(event.x, event.y);
                var el = doc.elementFromPoint(p.x, p.y);
                if (el) target = el;
            }
            var ce = new CustomEvent("touchwire:" + event.kind, { detail: event, bubbles: true, composed: true });
            Object.defineProperty(ce, "viewportX", { value: p ? p.x : NaN });
            Object.defineProperty(ce, "viewportY", { value: p ? p.y : NaN });
            target.dispatchEvent(ce);
            if (typeof options.onevent === "function") options.onevent(event, target);
        }

        function open() {
            timer = null;
            if (stopped) return;
            status("connecting");
            try {
                socket = new WS(url);
            } catch (e) {
                retry();
                return;
            }
            socket.onopen = function () {
                attempt = 0;
                status("open");
            };
            socket.onmessage = function (message) {
                var event;
                try {
                    event = JSON.parse(message.data);
                } catch (e) {
                    return; // not an event line: ignored
                }
                deliver(event);
            };
            socket.onclose = function () {
                socket = null;
                retry();
            };
            socket.onerror = function () { /* onclose follows */ };
        }

        function retry() {
            if (stopped || timer) return;
            var delay = Math.min(maxDelay, minDelay * Math.pow(2, attempt));
            delay = Math.round(delay * (0.8 + 0.4 * Math.random()));
            attempt += 1;
            status("closed", delay);
            timer = root.setTimeout(open, delay);
        }

        open();
        return {
            close: function () {
                stopped = true;
                if (timer) root.clearTimeout(timer);
                if (socket) socket.close();
                status("closed");
            },
            send: function (command) {
                if (!socket || state !== "open") return false;
                socket.send(String(command));
                return true;
            },
            get state() { return state; },
            get url() { return url; },
        };
    }

    root.touchwire = { connect: connect, version: "1" };
})(typeof window !== "undefined" ? window : this);
