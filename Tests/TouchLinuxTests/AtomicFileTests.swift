import Foundation
import TouchLinux
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The status file and `calibrate --write`: a temporary file in the same directory, renamed.
final class AtomicFileTests: XCTestCase {
    func testWritesWithMode0640WhateverTheUmask() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("touchwire.status").path
        let old = umask(0o000)
        defer { umask(old) }
        try AtomicFile.write("first\n".utf8, to: path)
        try AtomicFile.write("second\n".utf8, to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "second\n")
        XCTAssertEqual(AtomicFile.permissions(of: path), 0o640)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path), ["touchwire.status"],
            "no temporary file is left behind")
    }

    /// A symlink planted at the status path (say, to a file the service may write) is replaced,
    /// never written through.
    func testDoesNotFollowASymlink() throws {
        let dir = try makeTemporaryDirectory(self)
        let victim = dir.appendingPathComponent("victim").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let path = dir.appendingPathComponent("touchwire.status").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        try AtomicFile.write("status\n".utf8, to: path)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "status\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular, "the symlink itself was replaced")
    }

    /// A directory that cannot be written: a typed error, the old file untouched, no debris.
    func testUnwritableDirectoryIsAnErrorAndLeavesTheOldFile() throws {
        XCTAssertThrowsError(try AtomicFile.write("x".utf8, to: "/nonexistent-dir/touchwire.status"))
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("board.toml").path
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try AtomicFile.write("new".utf8, to: path + "/inside"))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n")
    }

    func testKeepsAGivenMode() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("board.toml").path
        try AtomicFile.write("a = 1\n".utf8, to: path, mode: 0o644)
        XCTAssertEqual(AtomicFile.permissions(of: path), 0o644)
        XCTAssertNil(AtomicFile.permissions(of: dir.appendingPathComponent("missing").path))
    }
}
