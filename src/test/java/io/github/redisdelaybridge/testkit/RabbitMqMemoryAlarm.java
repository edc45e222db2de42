package io.github.redisdelaybridge.testkit;

/**
 * Raises a memory alarm on the shared RabbitMQ broker (the high watermark set to almost nothing), so that it
 * blocks every publishing connection, and lowers it again on {@link #close()} by restoring the watermark it
 * read first. Use in try-with-resources: other tests share the broker.
 */
public final class RabbitMqMemoryAlarm implements AutoCloseable {

    private final String previousWatermark;
    private boolean restored;

    private RabbitMqMemoryAlarm(String previousWatermark) {
        this.previousWatermark = previousWatermark;
    }

    /** Reads the current watermark, sets one that raises the alarm, and returns once the broker reports the alarm. */
    public static RabbitMqMemoryAlarm raise() throws InterruptedException {
        String previous = RabbitMqTestClient.rabbitmqctl("eval", "vm_memory_monitor:get_vm_memory_high_watermark().").strip();
        RabbitMqMemoryAlarm alarm = new RabbitMqMemoryAlarm(previous);
        try {
            RabbitMqTestClient.rabbitmqctl("set_vm_memory_high_watermark", "0.00001");
            long deadline = System.currentTimeMillis() + 30_000;
            while (!memoryAlarmOn()) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("RabbitMQ did not raise its memory alarm");
                }
                Thread.sleep(100);
            }
            return alarm;
        } catch (RuntimeException | InterruptedException e) {
            alarm.close();
            throw e;
        }
    }

    public static boolean memoryAlarmOn() {
        return RabbitMqTestClient.rabbitmqctl("eval", "rabbit_alarm:get_alarms().").contains("memory");
    }

    /** Restores the watermark read before (relative, e.g. {@code 0.4}, or {@code {absolute,N}}). */
    @Override
    public void close() {
        if (restored) {
            return;
        }
        restored = true;
        if (previousWatermark.startsWith("{absolute,")) {
            String bytes = previousWatermark.substring("{absolute,".length(), previousWatermark.length() - 1).strip();
            RabbitMqTestClient.rabbitmqctl("set_vm_memory_high_watermark", "absolute", bytes);
        } else {
            RabbitMqTestClient.rabbitmqctl("set_vm_memory_high_watermark", previousWatermark);
        }
    }
}
