package dev.weir.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@link OutputSinkContract} of {@link dev.weir.postgres.PostgresOutputSink}: the results table's rows and the
 * late-events table's offsets, sorted (the shared database; tables of the test's own, dropped after it).
 */
class PostgresOutputSinkContractTest extends OutputSinkContract
{
    @RegisterExtension
    final TestTables tables = new TestTables("sink_contract");

    @Override
    String kind()
    {
        return "postgres";
    }

    @Override
    String target(final String name)
    {
        return tables.name() + "_" + name;
    }

    @Override
    List<String> delivered(final String target, final long outputs) throws Exception
    {
        final List<String> rows = new ArrayList<>(TestDatabase.rows(tables.db(),
            "SELECT key, window_start, window_end, count, sum, min, max, version FROM " + target));
        Collections.sort(rows);
        final List<String> late = new ArrayList<>(TestDatabase.rows(tables.db(), "SELECT event_offset FROM " + target + "_late"));
        Collections.sort(late);
        rows.add("--- late");
        rows.addAll(late);
        return rows;
    }
}
