import ArgumentParser
import BoardConfig
import FoundationEssentials
import TouchComposition
import TouchCore
import TouchDrivers
import TouchLinux
import TouchService
import TouchTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Touch calibration targets, fit tslib's affine calibration, optionally write it into the board file.",
        discussion: """
            Prompts on stderr for each target (panel pixels, as the display shows them), reads the \
            controller through the pipeline `run` assembles, raw (the board's calibration and rotation \
            not applied; invert/swap are), takes \
            the median of each press and rejects a press that moved. Prints `calibration = [...]` \
            (tslib pointercal, a6 = 65536) and the residual on stdout. On a simulated board the \
            [simulation] script plays the presses (script = "calibration": the five targets through a \
            known misaligned panel) on a virtual clock.
            """)

    @Option(name: .long, help: "The board file (TOML).")
    var board: String

    @Flag(name: .long, help: "Write the result into the board file's [controller] calibration key.")
    var write = false

    @Option(name: .long, help: "How many targets: 5 (tslib: corners inset 10 % and centre), 4 (corners) or 9 (3×3).")
    var points = 5

    @Option(name: .long, help: "Reject a press whose samples lie farther than this from their median (px).")
    var maxMovement = 5.0

    @Option(
        name: .long, help: "Refuse the fit (exit 1, nothing written) when a target is farther than this from it (px).")
    var maxResidual = 10.0

    @Option(name: .long, help: "Give up when a target is not pressed within this many seconds (0: never).")
    var timeout = 120

    /// Every number is range-checked before anything starts: a NaN would silently disable a
    /// check (every comparison with it is false) and a huge timeout would overflow microseconds.
    func validate() throws {
        guard maxMovement.isFinite && (0...10_000).contains(maxMovement) else {
            throw ValidationError("--max-movement must be 0…10000 px, got \(maxMovement)")
        }
        guard maxResidual.isFinite && maxResidual > 0 && maxResidual <= 10_000 else {
            throw ValidationError("--max-residual must be more than 0 and at most 10000 px, got \(maxResidual)")
        }
        guard (0...86_400).contains(timeout) else {
            throw ValidationError("--timeout must be 0…86400 s (0: never), got \(timeout)")
        }
    }

    func run() throws {
        let description = try loadBoard(board)
        guard let controller = description.controller else {
            throw fail("\(description.location): [controller]: missing; nothing to calibrate", code: 2)
        }
        func say(_ s: String) { writeStandardError(s + "\n") }

        // The board's pipeline, assembled where `run` assembles it; a simulated board's session
        // runs on a virtual clock (the same presses every run), hardware on the real one.
        let session: CalibrationSession
        do throws(ServiceError) {
            session = try CalibrationSession(
                board: description, points: points, maxMovement: maxMovement, log: { say("touchwire: " + $0) })
        } catch {
            throw fail("\(error)", code: 2)
        }
        defer { session.close() }
        if controller.calibration != nil {
            say("the board's current calibration is ignored while capturing")
        }
        session.start()
        say(session.prompt(for: 0))
        var askedAt = session.clock.now
        let limit = Int64(max(0, timeout)) * 1_000_000
        while !session.isComplete {
            let steps = session.read()
            let now = session.clock.now
            for step in steps {
                switch step {
                case .accepted(let index, let raw, let samples):
                    say(
                        "  \(session.targets[index].name): raw (\(format(raw.x)), \(format(raw.y))), "
                            + "median of \(samples) samples"
                    )
                    if index + 1 < session.targets.count { say(session.prompt(for: index + 1)) }
                case .rejected(let index, let reason):
                    say("  press rejected: \(reason)")
                    say(session.prompt(for: index))
                }
                askedAt = now
            }
            if session.isComplete { break }
            if session.scriptHasEnded, !session.isPressed, now.microseconds(since: askedAt) > 1_000_000 {
                throw fail(
                    "the simulation's script ended after \(session.currentIndex) of \(session.targets.count) targets"
                        + " (script = \"demo\" or \"calibration\" presses each target once)")
            }
            if limit > 0, !session.isPressed, now.microseconds(since: askedAt) > limit {
                throw fail("no press on the \(session.targets[session.currentIndex].name) target within \(timeout) s")
            }
        }

        let fit: CalibrationFit
        do throws(CalibrationError) {
            fit = try session.fit()
        } catch {
            throw fail("\(error)")
        }
        let result = [
            "calibration = \(fit.calibration.boardFileArray)",
            "# residual: max \(format(fit.maxResidual)) px, rms \(format(fit.rmsResidual)) px"
                + " over \(fit.residuals.count) points",
        ]
        if fit.maxResidual > maxResidual {
            // A refused fit is not a result: it goes to stderr, with the exit status, never to stdout.
            say("refused: " + result[0])
            say(result[1])
            throw fail(
                "the fit is off by \(format(fit.maxResidual)) px at one target "
                    + "(more than --max-residual \(format(maxResidual)));"
                    + " a target was probably missed: calibrate again" + (write ? " (nothing written)" : ""))
        }
        for line in result { print(line) }
        guard write else { return }
        try writeCalibration(fit.calibration, say: say)
    }

    /// Rewrites the board file's calibration line in place, after checking that the new text loads.
    func writeCalibration(_ calibration: AffineCalibration, say: (String) -> Void) throws {
        let original: String
        do {
            original = try String(contentsOfFile: board, encoding: .utf8)
        } catch {
            throw fail("\(board): cannot read: \(ioErrorReason(error))")
        }
        let edited: String
        do throws(BoardEditError) {
            edited = try BoardFileEditor.settingCalibration(calibration.boardFileArray, in: original)
        } catch {
            throw fail("\(board): \(error)")
        }
        let directory = directoryPart(of: board)
        let check: BoardDescription
        do throws(BoardFileError) {
            check = try BoardLoader.parse(edited, file: board, directory: directory.isEmpty ? "." : directory)
        } catch {
            for issue in error.issues { _ = fail(issue.description) }
            throw fail("\(board): the edited file would not load; left unchanged")
        }
        guard check.controller?.calibration == calibration.pointercal else {
            throw fail("\(board): the edited file does not carry the new calibration; left unchanged")
        }
        do {
            // Atomic: a new file in the same directory, renamed over the board file (never through
            // a symlink); it keeps the old file's permission bits (its owner becomes the caller).
            try AtomicFile.write(edited.utf8, to: board, mode: AtomicFile.permissions(of: board) ?? 0o644)
        } catch {
            throw fail("\(board): cannot write: \(error) (left unchanged)")
        }
        let reloaded = try loadBoard(board)
        guard reloaded.controller?.calibration == calibration.pointercal else {
            throw fail("\(board): re-loading the written file did not give the new calibration")
        }
        say("wrote calibration to \(board) ([controller] calibration); validated")
    }
}

private func format(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    return r == r.rounded() ? (Int(checking: r).map(String.init) ?? "\(r)") : "\(r)"
}
