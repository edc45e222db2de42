package io.github.redisdelaybridge.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the load of the ceiling, ingest and precision scenarios comes from: a producer and a consumer in the
 * benchmark's JVM ({@link InJvmLoad}), or a load generator in a JVM of its own ({@link LoadGeneratorProcess}),
 * as users run theirs. Every message is 100 bytes with an {@code x-delay} and an {@code x-target} of {@code kafka:<target>}.
 */
interface LoadGenerator {

    /**
     * Starts sending {@code count} messages to {@code topic} as fast as the producer takes them. The clock starts
     * once the producer knows the topic's partitions, so that a metadata fetch is not timed.
     */
    Publishing publish(String topic, int count, long delayMs, String target) throws Exception;

    /**
     * Sends {@code rate} messages a second to {@code topic} for {@code durationMs}, and records the lateness of those
     * arriving on {@code target} (one partition, read from its start) whose due time is {@code recordFrom} or later,
     * waiting up to {@code delayMs} + 60 s for all of them.
     */
    Arrivals paced(String topic, int rate, long durationMs, long delayMs, String target, long recordFrom) throws Exception;

    /** A publish under way. */
    interface Publishing {

        /** Waits until the broker has acked every message. */
        Published await() throws Exception;
    }

    /** When the first message was sent and when the last ack came, epoch ms (the machine's one clock). */
    record Published(long startedMs, long ackedMs) {
    }

    /** What a paced load saw arrive: the lateness split as {@link ArrivalRecorder} splits it. */
    record Arrivals(int sent, long arrived, LatencyRecorder lateness, LatencyRecorder dueToSent, LatencyRecorder sentToReceived) {

        static Arrivals of(int sent, ArrivalRecorder recorder) {
            return new Arrivals(sent, recorder.arrivals(), recorder.lateness, recorder.dueToSent, recorder.sentToReceived);
        }

        /** Four lines: "sent arrived", then the samples of lateness, due -> sent, sent -> received. */
        void write(Path file) throws IOException {
            Files.write(file, List.of(sent + " " + arrived, samples(lateness), samples(dueToSent), samples(sentToReceived)),
                    StandardCharsets.US_ASCII);
        }

        static Arrivals read(Path file) throws IOException {
            List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
            String[] counts = lines.get(0).split(" ");
            return new Arrivals(Integer.parseInt(counts[0]), Long.parseLong(counts[1]), recorder(lines.get(1)), recorder(lines.get(2)),
                    recorder(lines.get(3)));
        }

        private static String samples(LatencyRecorder recorder) {
            StringBuilder line = new StringBuilder();
            for (long sample : recorder.samples()) {
                line.append(line.length() == 0 ? "" : " ").append(sample);
            }
            return line.toString();
        }

        private static LatencyRecorder recorder(String line) {
            LatencyRecorder recorder = new LatencyRecorder();
            for (String sample : line.isBlank() ? new String[0] : line.split(" ")) {
                recorder.record(Long.parseLong(sample));
            }
            return recorder;
        }
    }
}
