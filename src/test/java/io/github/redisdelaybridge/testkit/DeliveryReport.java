package io.github.redisdelaybridge.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The counts a fault test reports: sent, delivered (distinct), duplicates (extra copies), dead-lettered,
 * missing (sent but neither delivered nor dead-lettered). Printed, and appended to
 * target/fault-tests/report.txt.
 */
public record DeliveryReport(String test, int sent, int delivered, int duplicates, int deadLettered, int missing) {

    /** Counts by x-message-id: records on {@code targetTopic} are deliveries, all others dead letters. */
    public static DeliveryReport of(String test, Collection<String> sentIds, List<KafkaTestClient.Received> received, String targetTopic) {
        return of(test, sentIds, received, targetTopic, KafkaTestClient.Received::messageId);
    }

    public static DeliveryReport of(String test, Collection<String> sentIds, List<KafkaTestClient.Received> received, String targetTopic,
                                    java.util.function.Function<KafkaTestClient.Received, String> identity) {
        return of(test, sentIds,
                received.stream().filter(r -> r.record().topic().equals(targetTopic)).map(identity).toList(),
                received.stream().filter(r -> !r.record().topic().equals(targetTopic)).map(identity).toList());
    }

    public static DeliveryReport of(String test, Collection<String> sentIds, Collection<String> deliveredIds,
                                    Collection<String> deadLetteredIds) {
        Map<String, Integer> copies = new HashMap<>();
        for (String id : deliveredIds) {
            copies.merge(id, 1, Integer::sum);
        }
        int duplicates = copies.values().stream().mapToInt(c -> c - 1).sum();
        Set<String> dead = new HashSet<>(deadLetteredIds);
        int missing = 0;
        for (String id : sentIds) {
            if (!copies.containsKey(id) && !dead.contains(id)) {
                missing++;
            }
        }
        DeliveryReport report = new DeliveryReport(test, sentIds.size(), copies.size(), duplicates, dead.size(), missing);
        report.print();
        return report;
    }

    private void print() {
        String line = String.format("FAULT-REPORT %s: sent=%d delivered=%d duplicates=%d dead-lettered=%d missing=%d",
                test, sent, delivered, duplicates, deadLettered, missing);
        System.out.println(line);
        try {
            Path file = Path.of("target", "fault-tests", "report.txt");
            Files.createDirectories(file.getParent());
            Files.writeString(file, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // the printed line is enough
        }
    }
}
