internal import FaultPoints

extension Faults {
    /// Whether `fault` is selected: `contains(_:)`, compiled in this module so that its branch sites specialise it
    /// (FaultPoints' generic `contains` is not inlined across modules at package access, and looks up type
    /// metadata at every call). A shipped value answers after one emptiness check.
    func selects(_ fault: Fault<Owner>) -> Bool { !selected.isEmpty && selected.contains(fault) }
}
