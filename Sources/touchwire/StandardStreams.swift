import SystemPackage
import TouchLinux

/// Writes `text` whole to standard error, waiting as long as the descriptor needs (as a blocking
/// write would). A failure (a closed descriptor) is dropped: there is nowhere left to report it.
func writeStandardError(_ text: String) { writeWhole(text, to: .standardError) }

/// Writes `text` whole to standard output (`plot -`, `monitor`), waiting as long as it needs.
func writeStandardOutput(_ text: String) { writeWhole(text, to: .standardOutput) }

private func writeWhole(_ text: String, to descriptor: FileDescriptor) {
    var text = text
    text.withUTF8 { bytes in
        try? DescriptorIO.writeAll(descriptor, UnsafeRawBufferPointer(bytes), timeoutMilliseconds: -1)
    }
}

/// The directory part of `path` as `NSString.deletingLastPathComponent` gives it: "a/b.toml" → "a",
/// "b.toml" → "", "/b.toml" → "/".
func directoryPart(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    if slash == trimmed.startIndex { return "/" }
    var directory = trimmed[..<slash]
    while directory.count > 1 && directory.hasSuffix("/") { directory = directory.dropLast() }
    return String(directory)
}
