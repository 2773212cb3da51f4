/// Elements by deadline, earliest first: what ``DeliveryClockPool``'s threads keep their clocks in.
///
/// A binary min-heap alone served the pool, and each tick's pop and push sifted through it (11 levels
/// for 2 000 clocks: 1.5 % of `motionctl simulate`'s CPU). But a thread's clocks mostly share one
/// interval and are popped in deadline order, so their next deadlines come back in order: those join a
/// first-in-first-out run, popped and pushed in O(1) without a comparison beyond the run's last deadline.
/// A deadline earlier than the run's last one (a clock with a shorter interval, a tick skipped after a
/// late wake-up) goes to the heap, and a pop takes the earlier of the run's first and the heap's top, so
/// the order is exact whatever the deadlines.
///
/// The deadlines live in arrays of their own, so that sifting compares and moves plain integers. A pure
/// value: not for concurrent use (the pool's thread holds its lock).
struct DeadlineQueue<Element> {
    private var heapDeadlines: [UInt64] = []
    private var heapElements: [Element] = []
    /// The run: non-decreasing deadlines from `runStart` on (the slots before it are popped).
    private var runDeadlines: [UInt64] = []
    private var runElements: [Element] = []
    private var runStart = 0

    /// An empty queue.
    init() {}

    /// How many elements are queued.
    var count: Int { heapDeadlines.count + runDeadlines.count - runStart }

    /// Whether nothing is queued.
    var isEmpty: Bool { count == 0 }

    /// How many elements are in the heap rather than the run (for tests: in-order pushes stay out of it).
    var heapCount: Int { heapDeadlines.count }

    /// The earliest deadline, `nil` when empty.
    var earliestDeadline: UInt64? {
        guard let heapFirst = heapDeadlines.first else { return runFirst }
        guard let runFirst else { return heapFirst }
        return min(runFirst, heapFirst)
    }

    /// Adds `element` due at `deadline`.
    mutating func push(deadline: UInt64, element: Element) {
        if runStart == runDeadlines.count || deadline >= runDeadlines[runDeadlines.count - 1] {
            runDeadlines.append(deadline)
            runElements.append(element)
            return
        }
        heapDeadlines.append(deadline)
        heapElements.append(element)
        var child = heapDeadlines.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard deadline < heapDeadlines[parent] else { break }
            swapHeap(child, parent)
            child = parent
        }
    }

    /// Removes and returns the element with the earliest deadline (of equal ones, the run's first); the
    /// queue must not be empty.
    mutating func popFirst() -> (deadline: UInt64, element: Element) {
        if let runFirst, heapDeadlines.first.map({ runFirst <= $0 }) ?? true {
            return popRun()
        }
        return popHeap()
    }

    /// The run's first deadline, `nil` when the run is empty.
    private var runFirst: UInt64? { runStart < runDeadlines.count ? runDeadlines[runStart] : nil }

    private mutating func popRun() -> (deadline: UInt64, element: Element) {
        let first = (runDeadlines[runStart], runElements[runStart])
        runStart += 1
        if runStart == runDeadlines.count {
            runDeadlines.removeAll(keepingCapacity: true)
            runElements.removeAll(keepingCapacity: true)
            runStart = 0
        } else if runStart >= 64, runStart * 2 >= runDeadlines.count {
            // The popped half goes, so the arrays do not grow without bound while the run never empties.
            runDeadlines.removeFirst(runStart)
            runElements.removeFirst(runStart)
            runStart = 0
        }
        return first
    }

    private mutating func popHeap() -> (deadline: UInt64, element: Element) {
        swapHeap(0, heapDeadlines.count - 1)
        let first = (heapDeadlines.removeLast(), heapElements.removeLast())
        let count = heapDeadlines.count
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < count, heapDeadlines[left] < heapDeadlines[smallest] { smallest = left }
            if right < count, heapDeadlines[right] < heapDeadlines[smallest] { smallest = right }
            guard smallest != parent else { break }
            swapHeap(parent, smallest)
            parent = smallest
        }
        return first
    }

    private mutating func swapHeap(_ i: Int, _ j: Int) {
        heapDeadlines.swapAt(i, j)
        heapElements.swapAt(i, j)
    }
}
