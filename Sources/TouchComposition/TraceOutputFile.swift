import TouchLinux
import TouchTrace

extension OutputFile {
    /// This file as the destination of a `TraceFileWriter`: its write errors as trace errors.
    package var traceOutput: TraceOutput {
        { [self] (bytes) throws(TraceError) in
            do throws(OutputFileError) { try write(bytes) } catch {
                throw TraceError.io(file: path, message: "cannot write trace: \(error.reason)")
            }
        }
    }

    /// `commit()`, its errors as trace errors.
    package func commitTrace() throws(TraceError) {
        do throws(OutputFileError) { try commit() } catch {
            throw TraceError.io(file: path, message: "cannot write trace: \(error.reason)")
        }
    }
}

extension OutputFileError {
    /// The description without the leading path (for messages that name the file already).
    package var reason: String {
        switch self {
        case .failed(_, let op, let e): return "\(op) failed (\(e))"
        default: return description
        }
    }
}
