extension Array where Element == UInt8 {
    /// `init(unsafeUninitializedCapacity:initializingWith:)`, but an empty
    /// array, `body` not called, for a capacity of 0: the standard
    /// library's initializer sets the count of the storage every empty
    /// array shares even then, a write that two threads making empty arrays
    /// at once race on (ThreadSanitizer reports it).
    @inlinable
    package init(
        uninitializedCapacity capacity: Int,
        initializingWith body: (_ buffer: inout UnsafeMutableBufferPointer<UInt8>, _ count: inout Int) -> Void
    ) {
        guard capacity > 0 else {
            self = []
            return
        }
        self.init(unsafeUninitializedCapacity: capacity, initializingWith: body)
    }
}
