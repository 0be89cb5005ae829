-- The `ops serve --demo` pipeline: orders arrive from a file when the pipeline starts, and over HTTP after.
CREATE TABLE orders (
  id INT NOT NULL PRIMARY KEY,
  customer VARCHAR NOT NULL,
  product VARCHAR NOT NULL,
  quantity INT NOT NULL,
  amount DECIMAL(10, 2) NOT NULL,
  placed_at TIMESTAMP NOT NULL
) WITH ('connectors' = '[{
  "name": "seed",
  "transport": {"name": "url_input", "config": {"path": "{{ORDERS_URL}}"}},
  "format": {"name": "json", "config": {"update_format": "raw", "array": false}}
}]');

-- Revenue per product, kept up to date change by change.
CREATE MATERIALIZED VIEW revenue_by_product AS
SELECT product, COUNT(*) AS orders, SUM(quantity) AS units, SUM(amount) AS revenue
FROM orders
GROUP BY product;

-- The three best customers by what they spent.
CREATE MATERIALIZED VIEW top_customers AS
SELECT customer, SUM(amount) AS spent
FROM orders
GROUP BY customer
ORDER BY spent DESC
LIMIT 3;

-- Orders over 500.
CREATE VIEW big_orders AS
SELECT id, customer, product, amount FROM orders WHERE amount > 500;
