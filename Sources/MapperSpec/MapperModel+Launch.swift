extension MapperModel {
    /// M15 (G22): a relaunch keeps the saved works with their saved values and loses everything pending, as a
    /// fresh context does; what the mapper's cache kept must not change that (M9–M11).
    public mutating func relaunch() { discardPending() }
}
