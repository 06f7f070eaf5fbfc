import Gestures

/// The names that `GestureEvent.recognizer` and `.region` index, as the engine's tables hold
/// them. Resolved (and JSON-escaped) once here, so encoding an event only copies bytes.
package struct EventNames: Sendable {
    /// Recognizer names by index (board-file `[[recognizer]] name`).
    package let recognizers: [String]
    /// Region names by index (board-file `[[region]] name`).
    package let regions: [String]

    let recognizerUTF8: [[UInt8]]
    let regionUTF8: [[UInt8]]
    let recognizerJSON: [[UInt8]]
    let regionJSON: [[UInt8]]
    /// By recognizer index: a stroke recognizer's gesture names (`GestureEvent.stroke` indexes them).
    package let strokes: [[String]]
    let strokeJSON: [[[UInt8]]]

    /// `strokes`: by recognizer index, the template names of stroke recognizers (empty for others).
    package init(recognizers: [String], regions: [String], strokes: [[String]] = []) {
        self.recognizers = recognizers
        self.regions = regions
        self.strokes = strokes
        strokeJSON = strokes.map { names in
            names.map { name in
                var out: [UInt8] = []
                out.appendJSONString(name)
                return out
            }
        }
        recognizerUTF8 = recognizers.map { Array($0.utf8) }
        regionUTF8 = regions.map { Array($0.utf8) }
        recognizerJSON = recognizers.map { name in
            var out: [UInt8] = []
            out.appendJSONString(name)
            return out
        }
        regionJSON = regions.map { name in
            var out: [UInt8] = []
            out.appendJSONString(name)
            return out
        }
    }

    /// The recognizer's name; for a `.control` event, the control region's name (its
    /// `recognizer` index points into the region table, `formats.md` §2). An index outside
    /// the table gives "#<index>" rather than a crash.
    package func recognizerName(for event: GestureEvent) -> String {
        event.kind == .control ? regionName(event.recognizer) : recognizerName(event.recognizer)
    }

    /// The recognizer at `index`, or "#<index>".
    package func recognizerName(_ index: Int) -> String {
        recognizers.indices.contains(index) ? recognizers[index] : "#\(index)"
    }

    /// The region at `index`, or "#<index>".
    package func regionName(_ index: Int) -> String {
        regions.indices.contains(index) ? regions[index] : "#\(index)"
    }

    func appendRecognizerJSON<Out: ByteAppending & ~Copyable>(for event: GestureEvent, to out: inout Out) {
        if event.kind == .control {
            appendRegionJSON(event.recognizer, to: &out)
        } else if recognizerJSON.indices.contains(event.recognizer) {
            out.appendArray(recognizerJSON[event.recognizer])
        } else {
            out.appendJSONString("#\(event.recognizer)")
        }
    }

    /// The stroke's name as a JSON string; `null` when the recognizer has no such name.
    func appendStrokeJSON<Out: ByteAppending & ~Copyable>(recognizer: Int, stroke: Int, to out: inout Out) {
        if strokeJSON.indices.contains(recognizer), strokeJSON[recognizer].indices.contains(stroke) {
            out.appendArray(strokeJSON[recognizer][stroke])
        } else {
            out.appendLiteral("null")
        }
    }

    func appendRegionJSON<Out: ByteAppending & ~Copyable>(_ index: Int, to out: inout Out) {
        if regionJSON.indices.contains(index) {
            out.appendArray(regionJSON[index])
        } else {
            out.appendJSONString("#\(index)")
        }
    }

    func appendRecognizerText(for event: GestureEvent, to out: inout [UInt8]) {
        if event.kind == .control {
            appendRegionText(event.recognizer, to: &out)
        } else if recognizerUTF8.indices.contains(event.recognizer) {
            out.append(contentsOf: recognizerUTF8[event.recognizer])
        } else {
            out.append(contentsOf: "#\(event.recognizer)".utf8)
        }
    }

    func appendRegionText(_ index: Int, to out: inout [UInt8]) {
        if regionUTF8.indices.contains(index) {
            out.append(contentsOf: regionUTF8[index])
        } else {
            out.append(contentsOf: "#\(index)".utf8)
        }
    }
}
