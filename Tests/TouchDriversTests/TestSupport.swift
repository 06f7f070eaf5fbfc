// The shared fixtures (repositoryRoot, makeTemporaryDirectory, quietLogger, simulatedBoardText,
// tapBoard, waitFor, CollectingSink, TouchwireCommandLine, ...) for every file of this target,
// without an import line of their own (Tests/TouchwireTestSupport).
@_exported import TouchwireTestSupport
