package dev.kith.drivers;

import java.util.List;
import org.neo4j.driver.Record;
import org.neo4j.driver.summary.ResultSummary;

/** A whole result as a query-at-once API gives it back. */
record Answer(List<String> keys, List<Record> records, ResultSummary summary) {}
