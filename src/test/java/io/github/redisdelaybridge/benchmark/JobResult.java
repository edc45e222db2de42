package io.github.redisdelaybridge.benchmark;

/**
 * One system doing "the same job": N 100-byte messages enqueued through its own enqueue path with a
 * delay D, a consumer taking them as they fall due. Rate = N / (last arrival - first enqueue - D): the
 * time the job took beyond the delay itself. Lateness = arrival minus the message's due time.
 */
record JobResult(String system, int count, long delayMs, double rate, LatencyRecorder lateness, String cpu) {

    String describe() {
        return String.format("%.0f msg/s, lateness %s", rate, lateness.summary("ms"));
    }
}
