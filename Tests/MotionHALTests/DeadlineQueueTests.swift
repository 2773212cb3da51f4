import Testing

@testable import MotionHAL

/// `DeadlineQueue`: exact deadline order whatever the pushes, and the delivery pool's pattern (clocks of
/// one interval popped and pushed back in order) kept out of the heap.
@Suite struct DeadlineQueueTests {
    /// A SplitMix64 stream: the same pseudo-random pushes on every run.
    struct Stream {
        var state: UInt64
        mutating func next(below bound: UInt64) -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (z ^ (z >> 31)) % bound
        }
    }

    @Test func popsInDeadlineOrderWhateverThePushes() {
        var stream = Stream(state: 7)
        var queue = DeadlineQueue<Int>()
        // What is queued, sorted by deadline (a linear scan per pop made this test take seconds, minutes
        // under qemu).
        var reference: [(deadline: UInt64, element: Int)] = []
        var popped = 0
        /// Pops one element: one with the reference's earliest deadline (any of equal ones may come first).
        func popAndCheck() {
            let earliest = reference[0].deadline
            #expect(queue.earliestDeadline == earliest)
            let entry = queue.popFirst()
            #expect(entry.deadline == earliest)
            let index = reference.prefix { $0.deadline == earliest }.firstIndex { $0.element == entry.element }
            #expect(index != nil, "popped \(entry), which was not queued")
            if let index { reference.remove(at: index) }
        }
        for step in 0..<20_000 {
            // Mostly rising deadlines (the run), with earlier ones mixed in (the heap), and pops between.
            if stream.next(below: 3) != 0 || queue.isEmpty {
                let deadline = stream.next(below: 4) == 0 ? stream.next(below: 1_000) : 1_000 + UInt64(step) * 3 + stream.next(below: 5)
                queue.push(deadline: deadline, element: step)
                reference.insert((deadline, step), at: Self.firstIndex(after: deadline, in: reference))
            } else {
                popAndCheck()
                popped += 1
            }
            #expect(queue.count == reference.count)
        }
        // The rest comes out as the reference has it.
        while !queue.isEmpty { popAndCheck() }
        #expect(reference.isEmpty)
        #expect(queue.earliestDeadline == nil)
        #expect(popped > 5_000)
    }

    /// The index of the first entry of `sorted` whose deadline is after `deadline` (binary search).
    static func firstIndex(after deadline: UInt64, in sorted: [(deadline: UInt64, element: Int)]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].deadline <= deadline { low = middle + 1 } else { high = middle }
        }
        return low
    }

    @Test func clocksOfOneIntervalStayOutOfTheHeap() {
        var queue = DeadlineQueue<Int>()
        let interval: UInt64 = 100_000_000
        for clock in 0..<500 { queue.push(deadline: UInt64(clock) * interval / 500, element: clock) }
        // Ten periods of the pool's loop: pop what is due, push each back one interval later.
        var order: [Int] = []
        for _ in 0..<10 {
            var due: [(deadline: UInt64, element: Int)] = []
            for _ in 0..<500 { due.append(queue.popFirst()) }
            order += due.map(\.element)
            for entry in due { queue.push(deadline: entry.deadline + interval, element: entry.element) }
        }
        #expect(queue.heapCount == 0)
        #expect(order == Array(repeating: Array(0..<500), count: 10).flatMap { $0 })
        // A clock that skipped ahead and the ones behind it: exact order, through the heap.
        let skipped = queue.popFirst()
        queue.push(deadline: skipped.deadline + 5 * interval, element: skipped.element)
        let next = queue.popFirst()
        queue.push(deadline: next.deadline + interval, element: next.element)
        #expect(queue.heapCount == 1)
        var previous: UInt64 = 0
        var seen = Set<Int>()
        while !queue.isEmpty {
            let entry = queue.popFirst()
            #expect(entry.deadline >= previous)
            previous = entry.deadline
            seen.insert(entry.element)
        }
        #expect(seen == Set(0..<500))
    }
}
