/// Objects created by earlier steps, by reference (Hypothesis' `Bundle`). The model keeps one for
/// its values and the system one for its objects; an action that creates calls
/// `Arguments.result()` and adds under that reference, an action that uses one draws it with
/// `Arguments.ref(_:from:where:)`. References number every created object of a case in order.
public struct Bundle<Value> {
    public private(set) var refs: [Ref] = []
    public private(set) var values: [Value] = []

    public init() {}

    public var count: Int { refs.count }
    public var isEmpty: Bool { refs.isEmpty }

    public mutating func add(_ ref: Ref, _ value: Value) {
        refs.append(ref)
        values.append(value)
    }

    /// The value created as `ref`, or nil if this bundle has none.
    public subscript(ref: Ref) -> Value? {
        get { refs.firstIndex(of: ref).map { values[$0] } }
        set {
            guard let index = refs.firstIndex(of: ref) else { return }
            if let newValue { values[index] = newValue } else {
                refs.remove(at: index)
                values.remove(at: index)
            }
        }
    }
}

extension Bundle: Sendable where Value: Sendable {}
extension Bundle: Equatable where Value: Equatable {}
