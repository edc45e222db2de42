package io.github.redisdelaybridge.testkit;

import kafka.testkit.KafkaClusterTestKit;

/**
 * A Kafka broker in a JVM of its own, so a fault test can freeze it (SIGSTOP) as if the network to it
 * were cut. Prints {@value #READY} and its bootstrap address when it accepts clients.
 */
public final class ChildKafka {

    public static final String READY = "CHILD KAFKA READY ";

    public static void main(String[] args) throws Exception {
        KafkaClusterTestKit kafka = EmbeddedKafka.start(0);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                kafka.close();
            } catch (Exception ignored) {
                // exiting
            }
        }));
        System.out.println(READY + kafka.bootstrapServers());
        Thread.currentThread().join();
    }

    /** Starts one and returns it with its bootstrap address. */
    public static ChildProcess start(String name) throws InterruptedException {
        return start(name, java.util.List.of());
    }

    /** Starts one in a JVM with these options (a heap, a collector) and returns it with its bootstrap address. */
    public static ChildProcess start(String name, java.util.List<String> jvmOptions) throws InterruptedException {
        ChildProcess process = ChildProcess.java(name, ChildKafka.class.getName(), jvmOptions, java.util.Map.of()).start();
        process.awaitLog(READY, java.time.Duration.ofSeconds(60));
        return process;
    }

    public static String bootstrapOf(ChildProcess process) {
        String log = process.logText();
        int at = log.lastIndexOf(READY) + READY.length();
        return log.substring(at, log.indexOf('\n', at)).strip();
    }
}
