package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.csv.CsvIngest;
import dev.weir.postgres.PostgresOutputSink;
import org.junit.jupiter.api.Test;

/**
 * The service embeds Weir without its command line: weir-cli is not a dependency of its project, and no class
 * of it is on the class path of its tests, {@link CardAlertsOutageTest} among them.
 */
final class NoCommandLineTest
{
    @Test
    void noClassOfTheCommandLineIsOnTheClassPath() throws IOException
    {
        assertEquals("weir-csv", jarOf(CsvIngest.class), "the libraries the service uses are on the class path");
        assertEquals("weir-postgres", jarOf(PostgresOutputSink.class));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("dev.weir.cli.WeirCommand"));
        assertFalse(Files.readString(Path.of("pom.xml")).contains("<artifactId>weir-cli</artifactId>"), "the project depends on weir-cli");
    }

    /** @return the artifact of the jar a class was loaded from. */
    private static String jarOf(final Class<?> type)
    {
        final String jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().getPath()).getFileName().toString();
        return jar.replaceFirst("-[0-9].*\\.jar$", "");
    }
}
