/// Lets the other tests' tasks run, once every 100 rounds of a long loop.
///
/// Swift concurrency runs the tests' tasks on a pool with one thread per
/// core. A test that computes for seconds without suspending holds one of
/// those threads; on a two-core machine two such tests stall the wake-ups,
/// timeouts and replies of every test beside them for as long as they compute.
public func yieldToOtherTests(round: Int) async {
  if round.isMultiple(of: 100) { await Task.yield() }
}
