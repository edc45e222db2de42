package io.github.redisdelaybridge.store.parking;

/**
 * A target's parking state, as every instance reads it from Redis ({@code changeTargetState.lua}).
 *
 * @param since           when it entered this kind (epoch ms, Redis's clock)
 * @param nextProbeAt     when a parked target is probed next (epoch ms; 0 for the other kinds)
 * @param probeBackoffMs  how long after that probe the next one comes, if it fails too (0 for the other kinds)
 */
public record TargetState(String target, Kind kind, long since, long nextProbeAt, long probeBackoffMs) {

    public enum Kind {
        /** Failing: its messages are parked, and one at a time is sent as a probe, with backoff. */
        PARKED,
        /** Paused by an operator: its messages are parked, never sent nor expired, until it is resumed. */
        PAUSED,
        /** Answering again, or resumed: its parked messages go back to the due set at a controlled rate. */
        RETURNING;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static Kind ofWord(String word) {
            return valueOf(word.toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** How the state is stored: {@code "<kind> <since> <next probe at> <probe backoff ms>"}. */
    String stored() {
        return kind.word() + " " + since + " " + nextProbeAt + " " + probeBackoffMs;
    }

    static TargetState of(String target, String stored) {
        String[] words = stored.split(" ");
        return new TargetState(target, Kind.ofWord(words[0]), Long.parseLong(words[1]), Long.parseLong(words[2]), Long.parseLong(words[3]));
    }

    /** Whether its messages are parked by claims (parked or paused). */
    public boolean parksMessages() {
        return kind != Kind.RETURNING;
    }
}
