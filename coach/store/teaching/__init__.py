"""Teaching: classes and join codes (classrooms), teachers' cards
(teachers_cards), drill sets (drill_sets), assignments and the students'
answers (homework), where a student stands (work_states), the class
dashboard (dashboards), class hands (hands), a teacher's reports (reports),
and a person's teaching data when accounts merge, export or delete
(account_data).

Every function that reads a teacher's or a student's things takes the id
of the person asking and returns None (or nothing) for what is not
theirs: the web layer turns that into a 404, so a stranger cannot even
learn that a class, set or card exists. Nothing here knows of Flask.
"""
