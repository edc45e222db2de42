package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.testkit.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A load generator in a JVM of its own ({@link LoadGeneratorMain}), driven from the benchmark: each call is one
 * command to it, and its answer is read from its log. Times come from the child (the same machine, the same clock),
 * so the log's polling does not count in a rate.
 */
final class LoadGeneratorProcess implements LoadGenerator, AutoCloseable {

    /**
     * The load generator also receives the target's messages and stamps their arrival: a GC pause of its own is counted
     * as lateness of the messages that arrive during it. G1's default goal (200 ms) is too loose for an instrument.
     */
    static final String PAUSE_GOAL = "-XX:MaxGCPauseMillis=10";

    private final ChildProcess process;
    private int sequence;

    private LoadGeneratorProcess(ChildProcess process) {
        this.process = process;
    }

    /** Starts one against the Kafka at {@code bootstrap}; its log is target/fault-tests/{@code name}.log. */
    static LoadGeneratorProcess start(String name, String bootstrap) throws InterruptedException {
        ChildProcess process = ChildProcess.java(name, LoadGeneratorMain.class.getName(),
                List.of("-D" + LoadGeneratorMain.KAFKA + "=" + bootstrap, PAUSE_GOAL), Map.of()).start();
        try {
            process.awaitLog(LoadGeneratorMain.READY, Duration.ofSeconds(60));
        } catch (RuntimeException | InterruptedException e) {
            process.close();
            throw e;
        }
        return new LoadGeneratorProcess(process);
    }

    long pid() {
        return process.pid();
    }

    @Override
    public synchronized Publishing publish(String topic, int count, long delayMs, String target) throws Exception {
        int seq = ++sequence;
        process.writeLine(String.join(" ", "publish", Integer.toString(seq), topic, Integer.toString(count), Long.toString(delayMs), target));
        return () -> {
            String[] times = answer("acked " + seq + " ", Duration.ofMinutes(10)).split(" ");
            return new Published(Long.parseLong(times[0]), Long.parseLong(times[1]));
        };
    }

    @Override
    public synchronized Arrivals paced(String topic, int rate, long durationMs, long delayMs, String target, long recordFrom)
            throws Exception {
        int seq = ++sequence;
        Path file = Files.createTempFile("bench-arrivals-", ".txt");
        try {
            process.writeLine(String.join(" ", "paced", Integer.toString(seq), topic, Integer.toString(rate), Long.toString(durationMs),
                    Long.toString(delayMs), target, Long.toString(recordFrom), file.toString()));
            answer("paced " + seq, Duration.ofMillis(durationMs + delayMs + 120_000));
            return Arrivals.read(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Waits for the child's line starting with {@code prefix} and returns the rest of it. */
    private String answer(String prefix, Duration timeout) throws InterruptedException {
        String line = prefix.endsWith(" ") ? prefix : prefix + "\n";
        process.awaitLog(line, timeout);
        String log = process.logText();
        int at = log.lastIndexOf(line) + prefix.length();
        return log.substring(at, log.indexOf('\n', at)).strip();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
