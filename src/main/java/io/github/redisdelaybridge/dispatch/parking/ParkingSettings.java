package io.github.redisdelaybridge.dispatch.parking;

/**
 * The {@code bridge.parking.*} settings.
 *
 * @param failuresToPark        retriable publish failures of a target in a row, with no delivery between (on one instance),
 *                              that park it; 0: targets are never parked for failing (pausing still parks)
 * @param firstProbeMs          how long after a target is parked its first probe goes; each failed probe doubles it
 * @param maxProbeMs            the longest wait between two probes
 * @param returnRatePerSecond   how fast a target's parked messages go back to the due set once it answers or is resumed
 *                              (a target whose pattern has a rate limit returns at that rate instead)
 * @param maxAgeMs              how long a parked target's messages may wait before they are dead-lettered as
 *                              {@code publish-failed} ({@code bridge.retry.max-age-ms}), counted from their due time and
 *                              from when the target was parked, the later of the two; a paused target's never are
 */
public record ParkingSettings(int failuresToPark, long firstProbeMs, long maxProbeMs, int returnRatePerSecond, long maxAgeMs) {

    public ParkingSettings {
        if (failuresToPark < 0 || firstProbeMs < 1 || maxProbeMs < firstProbeMs || returnRatePerSecond < 1 || maxAgeMs < 1) {
            throw new IllegalArgumentException("bridge.parking.*: failures-to-park >= 0, first-probe-ms >= 1, max-probe-ms >= first-probe-ms"
                    + " and return-rate-per-second >= 1, got " + failuresToPark + ", " + firstProbeMs + ", " + maxProbeMs + ", " + returnRatePerSecond);
        }
    }

    /** Whether failing targets are parked at all. */
    public boolean parksFailingTargets() {
        return failuresToPark > 0;
    }
}
