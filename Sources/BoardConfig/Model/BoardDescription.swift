/// One deployment, fully validated: hardware, panel, regions, recognizers and outputs.
///
/// Produced only by `BoardLoader`, which guarantees the invariants stated on each field:
/// names are unique, every reference resolves, regions form one tree, require_fail is acyclic.
package struct BoardDescription: Sendable, Equatable {
    /// The board file's stem (`boards/sim-demo.toml` → `sim-demo`).
    package var name: String
    /// The path the board was loaded from, as given (empty for a hand-built description).
    package var file: String = ""
    /// Where errors about this board point: the file path, or the name without one.
    package var location: String { file.isEmpty ? name : file }
    package var panel: PanelDescription
    /// The touch hardware; nil for a board that only describes gestures (replay and validate).
    package var controller: ControllerDescription?
    /// Present exactly when `controller.bus == .simulated`.
    package var simulation: SimulationDescription?
    /// In file order; exactly one has no parent (the root), and parents form a tree.
    package var regions: [RegionDescription]
    /// In file order; at least one.
    package var recognizers: [RecognizerDescription]
    /// In file order, no duplicates; `[.stdout]` when the file names none.
    package var outputs: [OutputDescription]
    /// `[[binding]]`s in file order (empty when none): recognizers driving GPIO lines.
    package var bindings: [BindingDescription]
    /// `[realtime]`: thread scheduling, memory locking, CPU affinity (defaults: none requested).
    package var realtime: RealTimeDescription = RealTimeDescription()
    /// `[[binding]]`s with `action = "key"` or `"exec"`, in file order (empty when none).
    package var commandBindings: [CommandBindingDescription] = []
    /// `[exec]`: user and environment of exec bindings' programs.
    package var exec: ExecDescription = ExecDescription()
    /// `[passthrough]`, nil when absent.
    package var passthrough: PassthroughDescription?
    /// `[metrics]`: fleet-monitoring outputs (default: none).
    package var metrics: MetricsDescription = MetricsDescription()
    /// `[[output]] type = "websocket"`: validated settings of the bridge `touchwire-web`; nil when
    /// absent. The service itself does not serve it (docs/web.md).
    package var webSocket: WebSocketOutputDescription?
    /// `[display]`: screen sleep, touch to wake, outside control; nil when absent.
    package var display: DisplayDescription?

    package init(
        name: String, panel: PanelDescription, controller: ControllerDescription?, simulation: SimulationDescription?,
        regions: [RegionDescription], recognizers: [RecognizerDescription], outputs: [OutputDescription],
        bindings: [BindingDescription] = []
    ) {
        self.name = name
        self.panel = panel
        self.controller = controller
        self.simulation = simulation
        self.regions = regions
        self.recognizers = recognizers
        self.outputs = outputs
        self.bindings = bindings
    }

    /// The root region: the one without a parent (nil only for a hand-built, unvalidated description).
    package var rootRegion: RegionDescription? { regions.first { $0.parent == nil } }

    package func region(named name: String) -> RegionDescription? { regions.first { $0.name == name } }

    package func recognizer(named name: String) -> RecognizerDescription? { recognizers.first { $0.name == name } }
}
