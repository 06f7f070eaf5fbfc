import TouchComposition
import XCTest

/// Issue 30, class 6: `touchwire agent`'s programs reach the user's display: they get the
/// session's variables from the agent's environment (the user manager's), then the board's
/// `[exec] environment` (which wins), and nothing else of the agent's.
final class SessionEnvironmentTests: XCTestCase {
    func testSessionVariablesPassAndTheBoardWins() {
        let agent = [
            "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1001",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1001/bus", "DISPLAY": ":0",
            "SWAYSOCK": "/run/user/1001/sway.sock",
            "HOME": "/home/kiosk", "PATH": "/usr/bin", "LD_PRELOAD": "/tmp/x.so", "INVOCATION_ID": "abc",
        ]
        XCTAssertEqual(
            SessionEnvironment.programs(agent: agent, board: ["DISPLAY": ":1", "LANG": "C.UTF-8"]),
            [
                "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1001",
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1001/bus", "DISPLAY": ":1",
                "SWAYSOCK": "/run/user/1001/sway.sock", "LANG": "C.UTF-8",
            ])
        XCTAssertEqual(SessionEnvironment.programs(agent: ["HOME": "/root"], board: [:]), [:])
    }
}
