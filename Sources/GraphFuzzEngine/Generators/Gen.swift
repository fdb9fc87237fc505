/// A generator: a recipe that turns choices into a value.
///
/// Generators hold no shrinking logic. Because every value is made from the recorded choice
/// sequence, a shrunk sequence always yields a valid value ("integrated shrinking").
package struct Gen<Value>: Sendable {
    package let generate: @Sendable (Draw) -> Value

    package init(_ generate: @escaping @Sendable (Draw) -> Value) { self.generate = generate }

    /// A value that costs no choices.
    package static func just(_ value: Value) -> Gen<Value> where Value: Sendable { Gen { _ in value } }

    package func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Gen<T> {
        Gen<T> { draw in transform(self.generate(draw)) }
    }

    /// Generates a value, then a second generator chosen by it ("bind"). The whole stays one span,
    /// so shrinking the first value re-runs the second generator on the shrunk value.
    package func flatMap<T>(_ next: @escaping @Sendable (Value) -> Gen<T>) -> Gen<T> {
        Gen<T> { draw in
            draw.span(.bind) { next(self.generate(draw)).generate(draw) }
        }
    }

    /// Keeps values that satisfy `predicate`, retrying up to `maxTries` times; after that the
    /// case is rejected (discarded), never reported as a failure. Each try is an `.attempt` span;
    /// a rejected one is closed as discarded, so the shrinker can delete it.
    package func filter(maxTries: Int = 10, _ predicate: @escaping @Sendable (Value) -> Bool) -> Gen<Value> {
        Gen { draw in
            var tries = 0
            while true {
                draw.beginSpan(.attempt)
                let value = self.generate(draw)
                tries += 1
                let kept = predicate(value)
                draw.endSpan(discard: !kept)
                if kept { return value }
                if tries >= maxTries {
                    draw.reject()
                    return value
                }
            }
        }
    }
}
