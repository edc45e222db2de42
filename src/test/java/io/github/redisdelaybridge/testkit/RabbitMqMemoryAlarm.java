package io.github.redisdelaybridge.testkit;

/**
 * Raises a memory alarm on the shared RabbitMQ broker (the high watermark set to almost nothing), so that it
 * blocks every publishing connection, and lowers it again on {@link #close()} by restoring the watermark it
 * read first. Use in try-with-resources: other tests share the broker.
 */
public final class RabbitMqMemoryAlarm implements AutoCloseable {

    /** RabbitMQ's default; restored instead of a previous value that would itself keep the alarm on. */
    private static final String DEFAULT_WATERMARK = "0.4";
    private static final String ALARM_WATERMARK = "0.00001";

    private final String previousWatermark;
    private boolean restored;

    private RabbitMqMemoryAlarm(String previousWatermark) {
        this.previousWatermark = previousWatermark;
    }

    /** Reads the current watermark, sets one that raises the alarm, and returns once the broker reports the alarm. */
    public static RabbitMqMemoryAlarm raise() throws InterruptedException {
        String previous = RabbitMqTestClient.rabbitmqctl("eval", "vm_memory_monitor:get_vm_memory_high_watermark().").strip();
        RabbitMqMemoryAlarm alarm = new RabbitMqMemoryAlarm(keepsAlarmOn(previous) ? DEFAULT_WATERMARK : previous);
        try {
            RabbitMqTestClient.rabbitmqctl("set_vm_memory_high_watermark", ALARM_WATERMARK);
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

    /** A relative watermark this low is what an earlier run left behind when it could not restore the broker. */
    private static boolean keepsAlarmOn(String watermark) {
        try {
            return Double.parseDouble(watermark) < 0.01;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    public static boolean memoryAlarmOn() {
        return RabbitMqTestClient.rabbitmqctl("eval", "rabbit_alarm:get_alarms().").contains("memory");
    }

    /**
     * Restores the watermark read before (relative, e.g. {@code 0.4}, or {@code {absolute,N}}) and waits until the broker
     * has lifted the alarm: a broker left blocking would make every later test that publishes to it hang.
     */
    @Override
    public void close() {
        if (restored) {
            return;
        }
        restored = true;
        restoreWatermark();
        long deadline = System.currentTimeMillis() + 60_000;
        while (memoryAlarmOn()) {
            if (System.currentTimeMillis() > deadline) {
                RabbitMqTestClient.rabbitmqctl("set_vm_memory_high_watermark", DEFAULT_WATERMARK);
                throw new IllegalStateException("RabbitMQ kept its memory alarm after the watermark " + previousWatermark
                        + " was restored; set it to " + DEFAULT_WATERMARK);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void restoreWatermark() {
        if (previousWatermark.startsWith("{absolute,")) {
            String bytes = previousWatermark.substring("{absolute,".length(), previousWatermark.length() - 1).strip();
            RabbitMqTestClient.rabbitmqctl("set_vm_memory_high_watermark", "absolute", bytes);
        } else {
            RabbitMqTestClient.rabbitmqctl("set_vm_memory_high_watermark", previousWatermark);
        }
    }
}
