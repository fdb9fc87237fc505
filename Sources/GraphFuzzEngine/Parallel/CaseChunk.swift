/// A run of case indices handed to one worker at a time: `start`, `start + stride`, … (`count` cases).
///
/// Cases are generated from `SplitMix64.caseSeed(run:case:)` alone, so which worker runs a chunk
/// never changes what the case does; results are merged by case index.
@usableFromInline package struct CaseChunk: Equatable, Sendable {
    @usableFromInline package var start: Int
    @usableFromInline package var stride: Int
    @usableFromInline package var count: Int

    @usableFromInline package init(start: Int, stride: Int, count: Int) {
        self.start = start
        self.stride = stride
        self.count = count
    }

    /// The case indices, in the order a worker runs them.
    @usableFromInline package var indices: StrideTo<Int> { Swift.stride(from: start, to: start + count * stride, by: stride) }

    /// The cases after `index` (which must be one of this chunk's), for resuming after a worker died.
    @usableFromInline package func remaining(after index: Int) -> CaseChunk? {
        let done = (index - start) / stride + 1
        guard done < count else { return nil }
        return CaseChunk(start: index + stride, stride: stride, count: count - done)
    }
}

/// Hands out a shard's cases — `shardIndex`, `shardIndex + shardCount`, … below `runs`, from the first
/// of them at or above `first` — in case order, in chunks of whatever size the caller asks for (workers
/// get bigger chunks when cases are quick). Which chunk a case lands in never changes what the case does.
package struct CaseCursor: Sendable, Equatable {
    package let runs: Int
    package let shardCount: Int
    /// The next case to hand out.
    package private(set) var next: Int

    package init(runs: Int, shardIndex: Int = 0, shardCount: Int = 1, from first: Int = 0) {
        self.runs = runs
        self.shardCount = Swift.max(1, shardCount)
        let skipped = Swift.max(0, first - shardIndex)
        self.next = shardIndex + (skipped + self.shardCount - 1) / self.shardCount * self.shardCount
    }

    /// Cases not handed out yet.
    @usableFromInline package var remaining: Int { next < runs ? (runs - next + shardCount - 1) / shardCount : 0 }

    /// The next chunk of at most `size` cases (at least one), or nil when every case was handed out.
    @usableFromInline package mutating func take(_ size: Int) -> CaseChunk? {
        let count = Swift.min(Swift.max(1, size), remaining)
        guard count > 0 else { return nil }
        let chunk = CaseChunk(start: next, stride: shardCount, count: count)
        next += count * shardCount
        return chunk
    }
}
