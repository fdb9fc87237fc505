/// A run of case indices handed to one worker at a time: `start`, `start + stride`, … (`count` cases).
///
/// Cases are generated from `SplitMix64.caseSeed(run:case:)` alone, so which worker runs a chunk
/// never changes what the case does; results are merged by case index.
public struct CaseChunk: Equatable, Sendable {
    public var start: Int
    public var stride: Int
    public var count: Int

    public init(start: Int, stride: Int, count: Int) {
        self.start = start
        self.stride = stride
        self.count = count
    }

    /// The case indices, in the order a worker runs them.
    public var indices: [Int] { (0..<count).map { start + $0 * stride } }

    /// The cases after `index` (which must be one of this chunk's), for resuming after a worker died.
    public func remaining(after index: Int) -> CaseChunk? {
        let done = (index - start) / stride + 1
        guard done < count else { return nil }
        return CaseChunk(start: index + stride, stride: stride, count: count - done)
    }

    /// The chunks covering this shard's cases `shardIndex, shardIndex + shardCount, …` below
    /// `runs`, in case order, sized so `jobs` workers each get several (at most `maxSize` cases).
    public static func plan(runs: Int, shardIndex: Int = 0, shardCount: Int = 1, jobs: Int, maxSize: Int = 256) -> [CaseChunk] {
        guard runs > shardIndex, shardCount > 0 else { return [] }
        let total = (runs - shardIndex + shardCount - 1) / shardCount
        let size = Swift.max(1, Swift.min(maxSize, (total + 4 * jobs - 1) / (4 * Swift.max(1, jobs))))
        var chunks: [CaseChunk] = []
        var done = 0
        while done < total {
            let count = Swift.min(size, total - done)
            chunks.append(CaseChunk(start: shardIndex + done * shardCount, stride: shardCount, count: count))
            done += count
        }
        return chunks
    }
}
