extension Gen {
    /// A value from one of `generators`, chosen uniformly; shrinks towards the first.
    public static func oneOf(_ generators: [Gen<Value>]) -> Gen<Value> {
        precondition(!generators.isEmpty, "oneOf needs at least one generator")
        return Gen { draw in
            draw.span(.oneOf) {
                let index = Int(draw.chooseUniform(upTo: UInt64(generators.count - 1)))
                return generators[index].generate(draw)
            }
        }
    }

    /// A value from one of `choices`, picked in proportion to its weight; shrinks towards the first.
    public static func weighted(_ choices: [(weight: UInt32, gen: Gen<Value>)]) -> Gen<Value> {
        let weights = choices.map(\.weight)
        return Gen { draw in
            draw.span(.oneOf) { choices[draw.chooseWeighted(weights)].gen.generate(draw) }
        }
    }

    /// One of the given values; shrinks towards the first.
    public static func element(of values: [Value]) -> Gen<Value> where Value: Sendable {
        Gen { draw in draw.element(of: values) }
    }

    /// `nil` (the simpler) or a value.
    public var optional: Gen<Value?> {
        Gen<Value?> { draw in
            draw.span(.value) { draw.chooseBool(probability: 0.75) ? self.generate(draw) : nil }
        }
    }

    /// A list whose length is decided element by element: before each element a "more" flag is
    /// drawn, so deleting an element's span deletes it cleanly and neighbouring lists can merge.
    public func list(maxCount: Int = 32, averageCount: Double = 4) -> Gen<[Value]> {
        let more = averageCount / (averageCount + 1)
        return Gen<[Value]> { draw in
            draw.span(.list) {
                var result: [Value] = []
                while result.count < maxCount {
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
    public func array(count: Int) -> Gen<[Value]> {
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
    public func array(count: ClosedRange<Int>) -> Gen<[Value]> {
        Gen<Int>.int(in: count).flatMap { self.array(count: $0) }
    }

    /// A recursive generator: `leaf` at `maxDepth`, otherwise `branch` given the generator itself.
    public static func recursive(maxDepth: Int, leaf: Gen<Value>, branch: @escaping @Sendable (Gen<Value>) -> Gen<Value>) -> Gen<Value> {
        @Sendable func level(_ depth: Int) -> Gen<Value> {
            depth >= maxDepth ? leaf : branch(Gen { draw in level(depth + 1).generate(draw) })
        }
        return level(0)
    }
}

extension Gen where Value == String {
    /// A string over `alphabet` of up to `maxLength` characters; shrinks towards shorter strings of
    /// earlier characters.
    public static func string(alphabet: [Character], maxLength: Int = 8) -> Gen<String> {
        Gen<Character>.element(of: alphabet).list(maxCount: maxLength, averageCount: 3).map { String($0) }
    }
}
