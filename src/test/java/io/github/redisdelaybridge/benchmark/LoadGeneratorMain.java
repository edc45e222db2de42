package io.github.redisdelaybridge.benchmark;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The load generator of the processes scenario, in a JVM of its own as a user's producer and consumer are: the
 * benchmark's producer and arrival recorder ({@link InJvmLoad}) against the Kafka named in {@value #KAFKA}, driven
 * by one command a line on standard input, each answered with one line on standard output:
 * <pre>
 *   publish SEQ TOPIC COUNT DELAY_MS TARGET                        acked SEQ STARTED_MS ACKED_MS
 *   paced SEQ TOPIC RATE DURATION_MS DELAY_MS TARGET RECORD_FROM FILE   paced SEQ   (the arrivals written to FILE)
 * </pre>
 * It exits when standard input closes (the benchmark ended, however it ended), and on any failure, which the
 * benchmark then reads from its log.
 */
public final class LoadGeneratorMain {

    static final String READY = "LOAD GENERATOR READY";
    /** The system property with the bootstrap address. */
    static final String KAFKA = "bench.load.kafka";

    private LoadGeneratorMain() {
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        String bootstrap = System.getProperty(KAFKA);
        try (KafkaProducer<byte[], byte[]> producer = BenchEnvironment.loadProducer(bootstrap)) {
            LoadGenerator load = new InJvmLoad(bootstrap, producer, BenchEnvironment.newPayload());
            System.out.println(READY);
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                String[] w = line.split(" ");
                switch (w[0]) {
                    case "publish" -> {
                        LoadGenerator.Published p = load.publish(w[2], Integer.parseInt(w[3]), Long.parseLong(w[4]), w[5]).await();
                        System.out.println("acked " + w[1] + " " + p.startedMs() + " " + p.ackedMs());
                    }
                    case "paced" -> {
                        load.paced(w[2], Integer.parseInt(w[3]), Long.parseLong(w[4]), Long.parseLong(w[5]), w[6], Long.parseLong(w[7]))
                                .write(Path.of(w[8]));
                        System.out.println("paced " + w[1]);
                    }
                    default -> throw new IllegalArgumentException("unknown command: " + line);
                }
            }
        }
    }
}
