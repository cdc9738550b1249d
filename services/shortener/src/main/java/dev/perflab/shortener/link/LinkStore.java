package dev.perflab.shortener.link;

import java.util.Map;

import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.BulkOperations;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.index.Index;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.stereotype.Component;

@Component
class LinkStore {

	private final MongoTemplate mongo;

	LinkStore(MongoTemplate mongo) {
		this.mongo = mongo;
		mongo.indexOps(Link.class).createIndex(new Index("code", Sort.Direction.ASC).unique().named("code_unique"));
	}

	void insert(Link link) {
		mongo.insert(link);
	}

	Link find(String code) {
		return mongo.findOne(byCode(code), Link.class);
	}

	boolean delete(String code, String owner, String office) {
		return mongo.remove(byCode(code).addCriteria(Criteria.where("owner").is(owner).and("office").is(office)),
				Link.class)
			.getDeletedCount() > 0;
	}

	void addHits(Map<String, Long> hits) {
		BulkOperations bulk = mongo.bulkOps(BulkOperations.BulkMode.UNORDERED, Link.class);
		hits.forEach((code, n) -> bulk.updateOne(byCode(code), new Update().inc("hits", n)));
		bulk.execute();
	}

	private static Query byCode(String code) {
		return Query.query(Criteria.where("code").is(code));
	}
}
