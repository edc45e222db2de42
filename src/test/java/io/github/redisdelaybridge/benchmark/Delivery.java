package io.github.redisdelaybridge.benchmark;

/** How the messages of one run arrived on their target: each exactly once, or some missing or duplicated. */
record Delivery(long expected, long distinct, long duplicates) {

    long missing() {
        return Math.max(0, expected - distinct);
    }

    boolean complete() {
        return missing() == 0;
    }

    boolean exactlyOnce() {
        return complete() && duplicates == 0;
    }

    /** "" when exactly once, else e.g. "19,990 of 20,000 arrived, 3 duplicates". */
    String shortfall() {
        if (exactlyOnce()) {
            return "";
        }
        String missed = complete() ? "" : String.format("%,d of %,d arrived", distinct, expected);
        String doubled = duplicates == 0 ? "" : String.format("%,d duplicates", duplicates);
        return missed.isEmpty() ? doubled : doubled.isEmpty() ? missed : missed + ", " + doubled;
    }
}
