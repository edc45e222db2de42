package io.github.redisdelaybridge.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/** The JVM's metrics (GC pauses, memory, threads, classes, CPU, uptime: {@code jvm_*}, {@code process_*}, {@code system_*}). */
public final class JvmMeters implements AutoCloseable {

    private final JvmGcMetrics gc = new JvmGcMetrics();

    public JvmMeters bindTo(MeterRegistry registry) {
        gc.bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        return this;
    }

    /** Stops listening for GC notifications (the JVM would keep calling a stopped bridge's listener). */
    @Override
    public void close() {
        gc.close();
    }
}
