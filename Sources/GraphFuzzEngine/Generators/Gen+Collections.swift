extension Gen {
    /// A value from one of `generators`, chosen uniformly; shrinks towards the first.
    package static func oneOf(_ generators: [Gen<Value>]) -> Gen<Value> {
        precondition(!generators.isEmpty, "oneOf needs at least one generator")
        return Gen { draw in
            draw.span(.oneOf) {
                let index = Int(draw.chooseUniform(upTo: UInt64(generators.count - 1)))
                return generators[index].generate(draw)
            }
        }
    }

    /// A value from one of `choices`, picked in proportion to its weight; shrinks towards the first.
    package static func weighted(_ choices: [(weight: UInt32, gen: Gen<Value>)]) -> Gen<Value> {
        let weights = choices.map(\.weight)
        return Gen { draw in
            draw.span(.oneOf) { choices[draw.chooseWeighted(weights)].gen.generate(draw) }
        }
    }

    /// One of the given values; shrinks towards the first.
    package static func element(of values: [Value]) -> Gen<Value> where Value: Sendable {
        Gen { draw in draw.element(of: values) }
    }

    /// `nil` (the simpler) or a value.
    package var optional: Gen<Value?> {
        Gen<Value?> { draw in
            draw.span(.value) { draw.chooseBool(probability: 0.75) ? self.generate(draw) : nil }
        }
    }

    /// A list whose length is decided element by element: before each element a "more" flag is
    /// drawn, so deleting an element's span deletes it cleanly and neighbouring lists can merge.
    ///
    /// - Parameters:
    ///   - maxCount: the most elements the list may have; `nil` (the default) sets no cap of its own
    ///     (a random case still stops drawing at its draw's `maxChoices`).
    ///   - averageCount: the mean length of a random list.
    package func list(maxCount: Int? = nil, averageCount: Double = 4) -> Gen<[Value]> {
        let more = averageCount / (averageCount + 1)
        let cap = maxCount ?? Int.max
        precondition(cap >= 0, "list(maxCount:) needs a cap of at least 0")
        return Gen<[Value]> { draw in
            draw.span(.list) {
                var result: [Value] = []
                while result.count < cap {
                    draw.beginSpan(.element)
                    guard draw.chooseBool(probability: more) else {
                        draw.endSpan()
                        break
                    }
                    result.append(self.generate(draw))
                    draw.endSpan()
                }
                return result
            }
        }
    }

    /// A list of exactly `count` elements.
    package func array(count: Int) -> Gen<[Value]> {
        Gen<[Value]> { draw in
            draw.span(.list) {
                var result: [Value] = []
                result.reserveCapacity(count)
                for _ in 0..<count { result.append(draw.span(.element) { self.generate(draw) }) }
                return result
            }
        }
    }

    /// A list whose size is drawn first from `count`.
    package func array(count: ClosedRange<Int>) -> Gen<[Value]> {
        Gen<Int>.int(in: count).flatMap { self.array(count: $0) }
    }

    /// A recursive generator: `leaf` at `maxDepth`, otherwise `branch` given the generator itself.
    package static func recursive(maxDepth: Int, leaf: Gen<Value>, branch: @escaping @Sendable (Gen<Value>) -> Gen<Value>) -> Gen<Value> {
        @Sendable func level(_ depth: Int) -> Gen<Value> {
            depth >= maxDepth ? leaf : branch(Gen { draw in level(depth + 1).generate(draw) })
        }
        return level(0)
    }

    /// A sized recursive generator: at most `maxBranches` values of one generated tree come from
    /// `branch` (and none deeper than `maxDepth`); once the size is spent every further value is a
    /// `leaf`. Bounds the size of a tree, not only its depth.
    package static func recursive(maxDepth: Int = .max, maxBranches: Int, leaf: Gen<Value>,
                                 branch: @escaping @Sendable (Gen<Value>) -> Gen<Value>) -> Gen<Value> {
        Gen { draw in
            let size = SizeBudget(remaining: maxBranches)
            @Sendable func level(_ depth: Int) -> Gen<Value> {
                guard depth < maxDepth, size.remaining > 0 else { return leaf }
                size.remaining -= 1
                return branch(Gen { draw in level(depth + 1).generate(draw) })
            }
            return level(0).generate(draw)
        }
    }
}

/// The branches one sized recursive generation may still use; lives for one generation only.
private final class SizeBudget: @unchecked Sendable {
    var remaining: Int
    init(remaining: Int) { self.remaining = remaining }
}

extension Gen {
    /// Two values drawn one after the other, as a tuple.
    package static func zip<A, B>(_ a: Gen<A>, _ b: Gen<B>) -> Gen<(A, B)> where Value == (A, B) {
        Gen { draw in (a.generate(draw), b.generate(draw)) }
    }

    /// Three values drawn one after the other, as a tuple.
    package static func zip<A, B, C>(_ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>) -> Gen<(A, B, C)> where Value == (A, B, C) {
        Gen { draw in (a.generate(draw), b.generate(draw), c.generate(draw)) }
    }

    /// This value and one drawn from `other`, as a tuple.
    package func zip<B>(_ other: Gen<B>) -> Gen<(Value, B)> {
        Gen<(Value, B)> { draw in (self.generate(draw), other.generate(draw)) }
    }

    /// Discards (never reports) cases whose value fails `predicate`, without retrying: an
    /// assumption about values that depend on each other.
    package func assume(_ predicate: @escaping @Sendable (Value) -> Bool) -> Gen<Value> {
        Gen { draw in
            let value = self.generate(draw)
            draw.assume(predicate(value))
            return value
        }
    }
}

extension Gen where Value == String {
    /// A string over `alphabet` of up to `maxLength` characters; shrinks towards shorter strings of
    /// earlier characters.
    package static func string(alphabet: [Character], maxLength: Int = 8) -> Gen<String> {
        Gen<Character>.element(of: alphabet).list(maxCount: maxLength, averageCount: 3).map { String($0) }
    }
}
