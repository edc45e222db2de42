package io.github.redisdelaybridge.outbound;

/**
 * The controls of one configured target pattern ({@code bridge.targets.<name>.*}). They apply to the pattern as a whole:
 * all targets it matches share its rate and its in-flight cap.
 *
 * @param name           the pattern's name in the settings: names its token bucket in Redis and labels its metrics
 * @param pattern        a glob over target texts, as in {@code bridge.targets.allowed} ({@code kafka:orders.*})
 * @param ratePerSecond  messages per second at most, over all instances; 0: no rate limit
 * @param maxInFlight    messages of its targets in flight at most in this instance, answered or not; 0: no cap of its own
 * @param maxLatenessMs  a message later than this when taken is dead-lettered as {@code expired}; 0: off
 */
public record TargetLimit(String name, String pattern, int ratePerSecond, int maxInFlight, long maxLatenessMs) {
}
