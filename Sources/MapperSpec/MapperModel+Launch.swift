import GraphFuzzEngine

extension MapperModel {
    /// M15 (G22): a relaunch keeps the saved works with their saved values and loses everything pending, as a
    /// fresh context does; what the mapper's cache kept must not change that (M9–M11). A store that cannot be reopened
    /// (observed as a trap) breaks M15 itself: every part of the step is M15's.
    public mutating func relaunch() -> Prediction<MapperObservation> {
        discardPending()
        return Prediction(.done, rule: MapperRules.survivesRelaunch)
    }
}

extension Prediction where Observation == MapperObservation {
    /// A step other than a mapping or a relaunch, observing `value` as `rule` decides; a trap at it is M11's: no step
    /// reads or writes a deleted or invalidated object.
    public static func step(_ value: MapperObservation, rule: String) -> Prediction {
        Prediction(value, rule: rule).part(MappingPart.trap, rule: MapperRules.noStaleRead)
    }
}
