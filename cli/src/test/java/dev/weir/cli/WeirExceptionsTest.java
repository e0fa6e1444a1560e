package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.weir.csv.CsvInputException;
import dev.weir.engine.CpuPinningException;
import dev.weir.engine.PipelineFailedException;
import dev.weir.engine.aggregate.AggregateSyntaxException;
import dev.weir.engine.delivery.DeliveryUnavailableException;
import dev.weir.engine.emit.DeterminismException;
import dev.weir.engine.expr.ExpressionException;
import dev.weir.engine.operator.ConditionSyntaxException;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.resume.ResumeAfterEndException;
import dev.weir.engine.time.UnitlessDurationException;
import dev.weir.files.ExportRefusedException;
import dev.weir.files.ReplayRefusedException;
import dev.weir.journal.CycleFullException;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JvmFlagsMissingException;
import dev.weir.journal.OffsetUnavailableException;
import dev.weir.journal.schema.NewerFormatException;
import dev.weir.journal.schema.WeirException;
import dev.weir.postgres.SinkRefusedException;
import org.junit.jupiter.api.Test;

/**
 * Every public exception type of Weir's library modules extends {@link WeirException}, except the three syntax
 * errors and the unitless duration, which stay {@link IllegalArgumentException}s (a bad argument, as the JDK reports one). The lists are
 * checked against the sources, so a new public exception must be added to one of them.
 */
class WeirExceptionsTest
{
    private static final List<Class<? extends RuntimeException>> WEIR = List.of(
        JournalRefusedException.class,
        JvmFlagsMissingException.class,
        CheckpointMismatchException.class,
        ResumeAfterEndException.class,
        PipelineFailedException.class,
        CpuPinningException.class,
        DeterminismException.class,
        SinkRefusedException.class,
        OffsetUnavailableException.class,
        CycleFullException.class,
        NewerFormatException.class,
        DeliveryUnavailableException.class,
        CsvInputException.class,
        ExportRefusedException.class,
        ReplayRefusedException.class);

    private static final List<Class<? extends RuntimeException>> BAD_ARGUMENT = List.of(
        ExpressionException.class,
        ConditionSyntaxException.class,
        AggregateSyntaxException.class,
        UnitlessDurationException.class);

    private static final List<String> LIBRARY_MODULES = List.of("journal", "engine", "csv", "files", "check", "postgres", "kafka", "micrometer");
    private static final Pattern PUBLIC_EXCEPTION = Pattern.compile(
        "^public (?:final |abstract )*class (\\w+(?:Exception|Error))\\b", Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("^package ([a-z.]+);", Pattern.MULTILINE);

    @Test
    void everyPublicExceptionExtendsWeirException()
    {
        for (final Class<? extends RuntimeException> type : WEIR)
        {
            assertTrue(WeirException.class.isAssignableFrom(type), type + " extends " + type.getSuperclass());
        }
        for (final Class<? extends RuntimeException> type : BAD_ARGUMENT)
        {
            assertEquals(IllegalArgumentException.class, type.getSuperclass(), type.getName());
            assertFalse(WeirException.class.isAssignableFrom(type), type.getName());
        }
        assertTrue(RuntimeException.class.isAssignableFrom(WeirException.class), "unchecked");
    }

    @Test
    void theListsHoldEveryPublicExceptionOfTheLibraryModules() throws IOException
    {
        final Set<String> found = new TreeSet<>();
        for (final String module : LIBRARY_MODULES)
        {
            final Path sources = Path.of("..", module, "src/main/java");
            assertTrue(Files.isDirectory(sources), sources.toAbsolutePath().toString());
            try (Stream<Path> files = Files.walk(sources))
            {
                for (final Path file : (Iterable<Path>)files.filter(f -> f.toString().endsWith(".java"))::iterator)
                {
                    final String text = Files.readString(file);
                    final Matcher type = PUBLIC_EXCEPTION.matcher(text);
                    final Matcher pkg = PACKAGE.matcher(text);
                    if (type.find() && pkg.find())
                    {
                        found.add(pkg.group(1) + "." + type.group(1));
                    }
                }
            }
        }
        final Set<String> listed = Stream.concat(Stream.concat(WEIR.stream(), BAD_ARGUMENT.stream()), Stream.of(WeirException.class))
            .map(Class::getName).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(listed, found, "public exception types in " + LIBRARY_MODULES + "'s sources");
    }
}
