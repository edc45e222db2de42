package io.github.redisdelaybridge;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package graph as docs/ARCHITECTURE.md draws it: layers from the bottom up, each importing only
 * downward, and no cycle between packages. A new arrow that points up fails here with the classes that
 * draw it.
 */
class PackageLayersTest {

    private static final String ROOT = "io.github.redisdelaybridge";

    /** Bottom first. A package may depend on packages listed before it, never on those after it. */
    static final List<String> LAYERS = List.of(
            "message",     // the vocabulary: header names, envelope and its codec, target, due time, dead-letter reasons
            "store",       // Redis: connection, keys, scripts, their results
            "metrics",     // meters every layer above records into
            "outbound",    // broker clients and target publishers
            "deadletter",  // dead-letter channels, built on the broker clients
            "dispatch",    // claim due messages, publish, settle, retry or dead-letter
            "inbound",     // read, validate and schedule messages from Kafka and RabbitMQ
            "admin",       // the HTTP API over the store
            "health",      // readiness and liveness over everything below
            "config",      // settings and wiring: knows every layer
            "tools");      // command-line tools shipped with the bridge (bin/publish): the vocabulary, and config for the settings

    private static JavaClasses bridge;

    @BeforeAll
    static void importBridge() {
        bridge = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void everyPackageOfTheBridgeHasALayer() {
        List<String> unlisted = bridge.stream()
                .map(JavaClass::getPackageName)
                .filter(p -> p.startsWith(ROOT + "."))
                .map(p -> p.substring(ROOT.length() + 1).split("\\.")[0])
                .distinct()
                .filter(top -> !LAYERS.contains(top))
                .toList();
        assertThat(unlisted)
                .as("packages without a place in LAYERS (add them, and to docs/ARCHITECTURE.md)")
                .isEmpty();
    }

    @Test
    void noPackageImportsFromALayerAboveIt() {
        for (int i = 0; i < LAYERS.size() - 1; i++) {
            String[] above = LAYERS.subList(i + 1, LAYERS.size()).stream().map(l -> ROOT + "." + l + "..").toArray(String[]::new);
            noClasses().that().resideInAPackage(ROOT + "." + LAYERS.get(i) + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(above)
                    .because(LAYERS.get(i) + " sits below " + Arrays.toString(above))
                    .check(bridge);
        }
    }

    @Test
    void messageDependsOnNoOtherPackageOfTheBridge() {
        noClasses().that().resideInAPackage(ROOT + ".message..")
                .should().dependOnClassesThat(resideInAPackage(ROOT + "..").and(not(resideInAPackage(ROOT + ".message.."))))
                .check(bridge);
    }

    @Test
    void noCycleBetweenPackages() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(bridge);
    }
}
